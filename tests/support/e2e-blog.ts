import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, BrowserContext, Locator, TestInfo } from "@playwright/test";
import type { Selectable } from "kysely";
import type { BlogPostsTable, BlogReactionsTable, PollVotesTable } from "../../app/features/blog/blog.tables";
import { withDb } from "./e2e-db";
import { ADMIN_KEY, BASE_URL, TMP_DIR } from "./e2e-env";
import { expect, test as base } from "./e2e-fixtures";

/** Helpers for the blog's browser tests (tests/e2e/blog-*.spec.ts). */

export type SeededPost = {
  slug: string;
  title: string;
  summary: string;
  author: string;
  date: string;
  /** The date as the page shows it. */
  shownDate: string;
  tags: string[];
  image: string;
  url: string;
};

const LINKEDIN = "https://www.linkedin.com/company/streetlight-outreach";

/** The posts of db/seed/blog.ts, in the blog's order. */
export const SEEDED: SeededPost[] = [
  {
    slug: "friday-night-on-the-walk",
    title: "Friday night on the walk: what street vespers taught us",
    summary:
      "Tea, a few songs and a lot of listening. Notes from a fortnightly evening of worship with friends who live on Nairobi's streets.",
    author: "Grace Wanjiru",
    date: "2025-10-17",
    shownDate: "17 October 2025",
    tags: ["vespers", "outreach", "nairobi"],
    image: "/images/blog/vespers-walk.webp",
    url: LINKEDIN,
  },
  {
    slug: "campus-mission-week",
    title: "Campus mission week: five days, one university, many questions",
    summary:
      "From 05 to 18 September 2025 our campus team ran a mission week with a university chaplaincy. Here is what worked, and what we would change.",
    author: "Brian Ochieng",
    date: "2025-09-25",
    shownDate: "25 September 2025",
    tags: ["campus", "ministry", "students"],
    image: "/images/blog/campus-week.webp",
    url: LINKEDIN,
  },
  {
    slug: "why-six-hours-a-week",
    title: "Why we ask every volunteer for about six hours a week",
    summary:
      "A volunteer-led organisation runs on time, not money. Our directors explain the role ladder and why six hours is the number.",
    author: "Street Light Directors",
    date: "2025-08-02",
    shownDate: "2 August 2025",
    tags: ["volunteers", "leadership"],
    image: "/images/blog/six-hours.webp",
    url: LINKEDIN,
  },
  {
    slug: "building-the-badge-kit",
    title: "Building the badge kit: how our volunteer developers ship",
    summary:
      "Supporters of the vespers concert receive a badge and a 'Will Be Attending' poster. The frontend and backend teams tell the story of building it.",
    author: "Kevin Mutua",
    date: "2025-11-10",
    shownDate: "10 November 2025",
    tags: ["volunteers", "tech", "vespers"],
    image: "/images/blog/badge-kit.webp",
    url: LINKEDIN,
  },
];

export const seeded = (slug: string) => SEEDED.find((p) => p.slug === slug)!;

export const EMBED_HINT = "Reader may be blocked by the source site. Open the original article below.";
export const SUBSCRIBED = "Thanks! We have your email.";
export const RATING_SAVED = "Thanks, your rating is saved.";
export const LINK_COPIED = "Link copied. Paste it anywhere to share this post.";
export const postUrl = (slug: string) => `${BASE_URL}/blogs/${slug}`;

// ---------------------------------------------------------------- posts of the tests' own

/** A post as POST /api/blogs.php takes it. */
export type PostInput = {
  slug: string;
  title: string;
  summary?: string;
  author?: string;
  date?: string;
  tags?: string[];
  image?: string;
  url?: string;
  contentHtml?: string;
};

/** A fresh id for this test and project: `on-xxxx` or `off-xxxx`, for slugs, titles and tags. */
export function uniqueId(info: TestInfo) {
  const project = info.project.name === "js-off" ? "off" : "on";
  return `${project}-${Date.now().toString(36)}${crypto.randomBytes(3).toString("hex")}`;
}

/** A post of this test's own (so counts it changes are its own), with a long enough body to scroll. */
export function ownPostFor(info: TestInfo, kind: string, extra: Partial<PostInput> = {}): PostInput {
  const id = uniqueId(info);
  return {
    slug: `e2e-${kind}-${id}`,
    title: `Test post ${kind} ${id}`,
    summary: "A post the browser tests add for themselves.",
    author: "Test Author",
    date: "2025-01-15",
    // A tag no seeded post has, so seeded posts' related lists stay as seeded.
    tags: ["e2e-fixture"],
    contentHtml: Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1} of a post written for the tests.</p>`).join("\n"),
    ...extra,
  };
}

const LOCK = path.join(TMP_DIR, "e2e-blog-list.lock");
const LOCK_OWNER = path.join(LOCK, "owner");

function lockIsStale() {
  try {
    const [pid, since] = fs.readFileSync(LOCK_OWNER, "utf8").split(" ").map(Number);
    if (Date.now() - since! > 60_000) return true;
    process.kill(pid!, 0); // throws when that worker is gone
    return false;
  } catch (e) {
    // No owner file yet (being taken right now): not stale, unless the folder is old.
    if ((e as NodeJS.ErrnoException).code === "ENOENT") {
      try {
        return Date.now() - fs.statSync(LOCK).mtimeMs > 10_000;
      } catch {
        return false;
      }
    }
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Runs `fn` while no other test worker changes the list of posts. Staff save the blog as one
 * list (the editor form and POST /api/blogs.php both replace it), so two tests adding a post
 * at once would drop each other's: every test that saves the list does so inside this lock.
 */
export async function withBlogListLock<T>(fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const deadline = Date.now() + 45_000;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      fs.writeFileSync(LOCK_OWNER, `${process.pid} ${Date.now()}`);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      if (lockIsStale()) fs.rmSync(LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`the blog list lock (${LOCK}) stayed busy`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

async function replaceList(request: APIRequestContext, change: (posts: Record<string, unknown>[]) => Record<string, unknown>[]) {
  await withBlogListLock(async () => {
    const list = await request.get("/api/blogs.php");
    expect(list.status()).toBe(200);
    const items = change((await list.json()) as Record<string, unknown>[]);
    const res = await request.post("/api/blogs.php", { headers: { "X-Admin-Key": ADMIN_KEY }, data: { items } });
    expect(res.status(), await res.text()).toBe(200);
  });
}

/** Appends posts to the blog through POST /api/blogs.php (read the list, append, write it back). */
export async function addPosts(request: APIRequestContext, posts: PostInput[]) {
  await replaceList(request, (list) => [...list, ...posts]);
}

/** Removes posts again, leaving everybody else's. */
export async function removePosts(request: APIRequestContext, slugs: string[]) {
  await replaceList(request, (list) => list.filter((p) => !slugs.includes(String(p.slug))));
}

type BlogFixtures = {
  /** A post of this test's own, added before it and removed after it. */
  ownPost: PostInput;
};

/**
 * The e2e fixtures, plus: a post of the test's own, and no network beyond the site (the
 * LinkedIn frame and the video player's script would otherwise reach out; they are aborted).
 */
export const test = base.extend<BlogFixtures>({
  context: async ({ context }, use) => {
    await context.route((url) => url.hostname !== new URL(BASE_URL).hostname, (route) => route.abort());
    await use(context);
  },
  ownPost: async ({ request }, use, info) => {
    const post = ownPostFor(info, "own");
    await addPosts(request, [post]);
    await use(post);
    await removePosts(request, [post.slug]);
  },
});

export { expect };

// ---------------------------------------------------------------- database and page reads

export type PostRow = Pick<Selectable<BlogPostsTable>, "slug" | "title" | "tags" | "content_html" | "sort">;
export type ReactionRow = Pick<Selectable<BlogReactionsTable>, "reaction" | "cid">;
export type VoteRow = Pick<Selectable<PollVotesTable>, "option" | "cid">;

export const postRow = (slug: string) =>
  withDb((db) => db.prepare("select * from blog_posts where slug = ?").get(slug) as PostRow | undefined);

export const reactionRows = (slug: string) =>
  withDb(
    (db) => db.prepare("select reaction, cid from blog_reactions where slug = ? order by reaction, cid").all(slug) as ReactionRow[],
  );

export const voteRows = (pollId: string) =>
  withDb((db) => db.prepare("select option, cid from poll_votes where poll_id = ? order by option, cid").all(pollId) as VoteRow[]);

/** The client id the site gave this browser (the HttpOnly `cid` cookie). */
export async function clientIdOf(context: BrowserContext) {
  const cid = (await context.cookies(BASE_URL)).find((c) => c.name === "cid")?.value;
  expect(cid, "the site has given this browser a client id").toMatch(/^[A-Za-z0-9_-]{8,64}$/);
  return cid!;
}

/** A client id no browser has: another reader, for calls made through the JSON API. */
export const otherClientId = () => crypto.randomBytes(16).toString("hex");

/** The count a reaction or poll button shows (its number, without the hidden 'votes'). */
export const countOf = (button: Locator) => button.locator(".reaction-count, .poll-count").first();

/** A poll count's number alone (the visually hidden ' votes' removed). */
export async function shownCount(button: Locator) {
  const text = (await countOf(button).textContent()) ?? "";
  return Number(text.replace(/\D+/g, ""));
}
