import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import * as editorRoute from "~/routes/blog/admin";
import { ORIGIN, args, get, reply, thrown } from "../../../../tests/support/http";
import { freshApp } from "../../../../tests/support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../../../../tests/support/smtp";
import { BlogPostSchema } from "../blog.schema";
import { getPost, listPosts, savePosts } from "../blog.server";
import { blankRow, EDITOR_PATH, fieldName, isBlankRow, postToRow, ROW_FIELDS, type EditorRow } from "./blog-admin-screen";
import { readEditorRows } from "~/routes/blog/blog-editor-page.server";
import { checkPosts } from "./blog-admin.server";

const STAFF = "10.0.0.42";
const YEAR = String(new Date().getFullYear());

const VESPERS = BlogPostSchema.parse({
  slug: "friday-night",
  title: "Friday night on the walk",
  summary: "Tea, songs and listening.",
  author: "Grace Wanjiru",
  date: "2025-10-17",
  tags: ["vespers", "outreach"],
  image: "/images/blog/vespers-walk.webp",
  url: "https://www.linkedin.com/pulse/friday-night",
  audioVideoId: "jNQXAC9IVRw",
  contentHtml: "<p>Every other Friday.</p>",
});
const CAMPUS = BlogPostSchema.parse({ slug: "campus-week", title: "Campus mission week", date: "2025", tags: ["campus"] });

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await smtp.close();
});

let db: Db;
let cookie: string;
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: smtp.url });
  smtp.clear();
  await savePosts(db, [VESPERS, CAMPUS]);
  cookie = (await createAdminSessionCookie(db, new Request(`${ORIGIN}/admin`))).split(";")[0]!;
});

/** The editor's form as a browser sends it. */
function editorBody(rows: Array<Partial<EditorRow>>, intent = "save") {
  const body = new URLSearchParams();
  rows.forEach((r, i) => {
    const row = { ...blankRow(YEAR), ...r };
    for (const f of ROW_FIELDS) body.append(fieldName(i, f), row[f]);
    if (row.remove) body.append(fieldName(i, "remove"), "on");
  });
  body.append("intent", intent);
  return body;
}

const post = (body: URLSearchParams, headers: Record<string, string> = { Cookie: cookie }) =>
  new Request(ORIGIN + EDITOR_PATH, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", Origin: ORIGIN, ...headers },
  });

const act = async (body: URLSearchParams, headers?: Record<string, string>) =>
  reply(await editorRoute.action(args(post(body, headers), STAFF)));
const saveRows = (rows: Array<Partial<EditorRow>>, intent = "save") => act(editorBody(rows, intent));
const notify = (slug: string, confirmed = false) =>
  act(new URLSearchParams({ intent: "notify", slug, ...(confirmed ? { confirmed: "yes" } : {}) }));

async function screen() {
  const data = await editorRoute.loader(args(get(EDITOR_PATH, { Cookie: cookie })));
  if (!data) throw new Error("expected the editor");
  return data;
}

const activity = (type: string) =>
  db.selectFrom("activity").select(["type", "message", "meta", "actor_ip"]).where("type", "=", type).orderBy("id").execute();

const savedRows = () => [VESPERS, CAMPUS].map((p) => postToRow({ ...p, tags: p.tags }));

describe("/blogs/admin loader", () => {
  it("signed out: nothing (the staff layout shows the sign-in form)", async () => {
    expect(await editorRoute.loader(args(get(EDITOR_PATH)))).toBeNull();
  });

  it("signed in: a row per post as staff edit it, the year for a new post, no notify runs yet", async () => {
    const data = await screen();
    expect(data.rows).toEqual([
      {
        slug: "friday-night",
        title: "Friday night on the walk",
        summary: "Tea, songs and listening.",
        author: "Grace Wanjiru",
        date: "2025-10-17",
        tags: "vespers, outreach",
        image: "/images/blog/vespers-walk.webp",
        url: "https://www.linkedin.com/pulse/friday-night",
        audioVideoId: "jNQXAC9IVRw",
        contentHtml: "<p>Every other Friday.</p>",
        remove: false,
      },
      { ...blankRow(YEAR), slug: "campus-week", title: "Campus mission week", date: "2025", tags: "campus" },
    ]);
    expect(data.savedSlugs).toEqual(["friday-night", "campus-week"]);
    expect(data.year).toBe(YEAR);
    expect(data.notifications).toEqual({});
  });

  it("the empty fieldset for a new post is blank but for its date (the current year)", () => {
    expect(blankRow(YEAR).date).toBe(YEAR);
    expect(isBlankRow(blankRow(YEAR))).toBe(true);
    expect(isBlankRow({ ...blankRow(YEAR), tags: "x" })).toBe(false);
  });
});

describe("Save Changes (intent save)", () => {
  it("adds, edits and removes posts; HTML is stored sanitised; 'Saved successfully'; logs blogs.save", async () => {
    const [vespers, campus] = savedRows();
    const unsafe = `<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>`;
    const result = await saveRows([
      { ...vespers, title: "Friday night, edited", tags: " vespers ,, nairobi , " },
      { ...campus, remove: true },
      { slug: "new-post", title: "A new post", summary: "New.", date: YEAR, contentHtml: `<p>Hello</p>${unsafe}` },
      blankRow(YEAR),
    ]);
    expect(result.status).toBe(200);
    expect(result.data).toEqual({ intent: "save", status: "success", message: "Saved successfully" });

    const posts = await listPosts(db);
    expect(posts.map((p) => p.slug)).toEqual(["friday-night", "new-post"]);
    expect(posts[0]).toMatchObject({ title: "Friday night, edited", tags: ["vespers", "nairobi"] });
    expect(posts[1]).toMatchObject({ date: YEAR, contentHtml: `<p>Hello</p><img src="x" loading="lazy" /><a>x</a>` });
    const stored = await db.selectFrom("blog_posts").select("content_html").where("slug", "=", "new-post").executeTakeFirstOrThrow();
    expect(stored.content_html).not.toMatch(/script|onerror|javascript/);

    expect(await activity("blogs.save")).toEqual([
      { type: "blogs.save", message: "Blog posts saved (2 posts)", meta: JSON.stringify({ count: 2 }), actor_ip: STAFF },
    ]);
    expect((await screen()).rows[1]!.contentHtml).toBe(`<p>Hello</p><img src="x" loading="lazy" /><a>x</a>`);
  });

  it("a blank date saves as the current year", async () => {
    await saveRows([{ slug: "dateless", title: "No date", date: "" }]);
    expect((await getPost(db, "dateless"))?.date).toBe(YEAR);
  });

  it.each([
    ["a malformed slug", { slug: "Bad Slug" }, "slug", /^Save failed: Post 2 \(Bad Slug\): Slugs use lower-case letters/],
    ["a missing title", { title: "  " }, "title", /^Save failed: Post 2 \(campus-week\): Every post needs a title\.$/],
    ["an http image", { image: "http://plain.example/a.jpg" }, "image", /^Save failed: Post 2 \(campus-week\): Use a path on this site/],
    ["a long tag", { tags: `ok, ${"t".repeat(31)}` }, "tags", /^Save failed: Post 2 \(campus-week\): Each tag must be at most 30 characters\.$/],
    ["a duplicate slug", { slug: "friday-night" }, "slug", /^Save failed: Two posts share the slug "friday-night"\.$/],
  ])("refuses %s with a 400, keeps what was typed and marks the field", async (_, change, field, message) => {
    const [vespers, campus] = savedRows();
    const typed = [vespers!, { ...campus!, ...change, summary: "Edited, not saved." }, blankRow(YEAR)];
    const result = await saveRows(typed);
    expect(result.status).toBe(400);
    expect(result.data.status).toBe("error");
    expect(result.data.message).toMatch(message);
    expect(result.data.result?.rows).toEqual(typed);
    expect(result.data.result?.issues?.[0]).toMatchObject({ row: 1, field });
    expect((await listPosts(db)).map((p) => p.slug)).toEqual(["friday-night", "campus-week"]);
    expect(await activity("blogs.save")).toEqual([]);
  });

  it("a shared slug is marked on both posts that have it", async () => {
    const [vespers, campus] = savedRows();
    const result = await saveRows([vespers!, { ...campus!, slug: " friday-night " }]);
    expect(result.data.result?.issues?.map((i) => [i.row, i.field])).toEqual([
      [1, "slug"],
      [0, "slug"],
    ]);
  });

  it("a new post with content but no slug is refused, not dropped", async () => {
    const result = await saveRows([...savedRows(), { ...blankRow(YEAR), contentHtml: "<p>Draft</p>" }]);
    expect(result.status).toBe(400);
    expect(result.data.message).toBe("Save failed: Post 3: Every post needs a slug.");
    expect(result.data.result?.issues?.[0]).toMatchObject({ row: 2, field: "slug" });
    expect(result.data.result?.rows?.[2]?.contentHtml).toBe("<p>Draft</p>");
  });

  it("a post with no fieldsets at all is refused (it would delete every post)", async () => {
    const result = await act(new URLSearchParams({ intent: "save" }));
    expect(result.status).toBe(400);
    expect(result.data.message).toMatch(/^Save failed: /);
    expect(await listPosts(db)).toHaveLength(2);
  });

  it("signed out: a redirect to sign in; another site's page: a 403", async () => {
    const res = await thrown(editorRoute.action(args(post(editorBody(savedRows()), {}), STAFF)));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/admin?returnTo=${encodeURIComponent(EDITOR_PATH)}`);
    const crossSite = await thrown(
      editorRoute.action(args(post(editorBody(savedRows()), { Cookie: cookie, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }), STAFF)),
    ).catch((e: unknown) => e);
    expect(crossSite).toMatchObject({ init: { status: 403 } });
    expect(await activity("blogs.save")).toEqual([]);
  });
});

describe("Generate Social Share Files (intent share)", () => {
  it("answers 'Share pages generated: 2 pages', keeps unsaved edits on screen, logs blogs.generate_share", async () => {
    const typed = [{ ...savedRows()[0]!, title: "Unsaved title" }];
    const result = await saveRows(typed, "share");
    expect(result.status).toBe(200);
    expect(result.data).toEqual({ intent: "share", status: "success", message: "Share pages generated: 2 pages", result: { rows: typed } });
    expect((await getPost(db, "friday-night"))?.title).toBe("Friday night on the walk");
    expect(await activity("blogs.generate_share")).toEqual([
      { type: "blogs.generate_share", message: "Blog share pages ready: 2 pages", meta: JSON.stringify({ count: 2 }), actor_ip: STAFF },
    ]);
  });

  it("one post is '1 page'", async () => {
    await savePosts(db, [VESPERS]);
    expect((await saveRows([], "share")).data.message).toBe("Share pages generated: 1 page");
  });
});

describe("Notify Subscribers (intent notify)", () => {
  beforeEach(async () => {
    const now = "2025-01-01T00:00:00.000Z";
    await db
      .insertInto("subscribers")
      .values(
        ["amina@example.org", "brian@example.org", "gone@example.org"].map((email, i) => ({
          email,
          status: i === 2 ? ("unsubscribed" as const) : ("active" as const),
          source: "blogs:index",
          token: `token-${i}`,
          created_at: now,
          updated_at: now,
          unsubscribed_at: i === 2 ? now : null,
        })),
      )
      .execute();
  });

  it("answers at once 'Notified subscribers: 2 subscribers queued' with counts only; the screen shows the run", async () => {
    const result = await notify("friday-night", true);
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({ intent: "notify", status: "success", message: "Notified subscribers: 2 subscribers queued", result: { slug: "friday-night", notification: { slug: "friday-night", recipients: 2, failed: 0 } } });
    expect(JSON.stringify(result.data)).not.toContain("@");
    const [logged] = await activity("blogs.notify");
    expect(logged).toMatchObject({ message: "Subscribers notified of friday-night: 2 subscribers queued", actor_ip: STAFF });

    await vi.waitFor(async () => expect((await screen()).notifications["friday-night"]?.queued).toBe(2));
    await drainOutbox();
    expect(smtp.messages.map((m) => m.envelope.to[0]).sort()).toEqual(["amina@example.org", "brian@example.org"]);
    const { notifications } = await screen();
    expect(notifications).toEqual({
      "friday-night": { id: expect.any(Number), slug: "friday-night", createdAt: expect.any(String), recipients: 2, queued: 2, sent: 2, failed: 0 },
    });
    expect(JSON.stringify(notifications)).not.toContain("@");
  });

  it("the first 'Notify Subscribers' asks first, with how many people would get it, and sends nothing", async () => {
    const ask = await notify("friday-night");
    expect(ask.status).toBe(200);
    expect(ask.data).toMatchObject({ intent: "notify", status: "success", message: "Email this post to 2 subscribers?", result: { slug: "friday-night", confirm: "notify", audience: 2 } });
    expect(await db.selectFrom("blog_notifications").selectAll().execute()).toEqual([]);
    expect(await activity("blogs.notify")).toEqual([]);
    await drainOutbox();
    expect(smtp.messages).toEqual([]);
  });

  it("notifying a post again takes a second press: the first asks (with the last run's date) and sends nothing", async () => {
    await notify("friday-night", true);
    const runs = async () => (await db.selectFrom("blog_notifications").selectAll().execute()).length;
    const ask = await notify("friday-night");
    expect(ask.status).toBe(200);
    expect(ask.data).toMatchObject({ intent: "notify", status: "success", result: { slug: "friday-night", confirm: "notify" } });
    expect(ask.data.message).toMatch(/^Subscribers were already notified about this post on .+ EAT\. Send it to them again\?$/);
    expect(await runs()).toBe(1);
    const again = await notify("friday-night", true);
    expect(again.data.message).toMatch(/^Notified subscribers: /);
    expect(await runs()).toBe(2);
  });

  it("the screen shows each post's latest run", async () => {
    const first = await notify("friday-night", true);
    const second = await notify("friday-night", true);
    await notify("campus-week", true);
    await vi.waitFor(async () => expect((await screen()).notifications["campus-week"]?.queued).toBe(2));
    const { notifications } = await screen();
    expect(Object.keys(notifications).sort()).toEqual(["campus-week", "friday-night"]);
    expect(notifications["friday-night"]!.id).toBe(second.data.result!.notification!.id);
    expect(second.data.result!.notification!.id).toBeGreaterThan(first.data.result!.notification!.id);
  });

  it("an unsaved or malformed slug: 'Notify failed' with a reason, nothing queued", async () => {
    const unknown = await notify("not-saved-yet");
    expect(unknown.status).toBe(404);
    expect(unknown.data).toMatchObject({ intent: "notify", status: "error", message: "Notify failed", result: { reason: "That post is not saved yet: save it first." } });
    const bad = await notify("<script>");
    expect(bad.status).toBe(400);
    expect(bad.data.message).toBe("Notify failed");
    expect(await db.selectFrom("blog_notifications").selectAll().execute()).toEqual([]);
    expect(await activity("blogs.notify")).toEqual([]);
  });
});

describe("checkPosts and readEditorRows", () => {
  it("reads fieldsets in index order, whatever order the fields came in", () => {
    const form = new FormData();
    form.append(fieldName(1, "slug"), "second");
    form.append(fieldName(0, "slug"), "first");
    form.append(fieldName(0, "remove"), "on");
    form.append("intent", "save");
    form.append("posts[x].slug", "ignored");
    const rows = readEditorRows(form);
    expect(rows.map((r) => [r.slug, r.remove, r.title])).toEqual([
      ["first", true, ""],
      ["second", false, ""],
    ]);
  });

  it("names the post by slug, then title, and says 'Post n' when it has neither", () => {
    expect(checkPosts([{ slug: "", title: "Untitled draft" }])).toMatchObject({ ok: false, message: "Post 1 (Untitled draft): Every post needs a slug." });
    expect(checkPosts([{ slug: "ok", title: "T" }, {}])).toMatchObject({ ok: false, message: "Post 2: The slug must be a string." });
    expect(checkPosts([{ slug: "ok", title: "T" }])).toMatchObject({ ok: true });
  });
});
