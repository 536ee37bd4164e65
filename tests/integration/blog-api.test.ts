import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { feedbackPollId, feedbackPollOptions, postPollId, type BlogPost } from "~/features/blog/blog";
import { BlogPostSchema } from "~/features/blog/blog.schema";
import { notificationStatus, savePosts } from "~/features/blog/blog.server";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import * as blogsDataApi from "~/routes/api/blogs-data";
import * as blogsApi from "~/routes/api/blogs";
import * as generateShareApi from "~/routes/api/generate-blog-share";
import * as notifyApi from "~/routes/api/notify-new-blog";
import * as pollsApi from "~/routes/api/polls";
import * as reactionsApi from "~/routes/api/reactions";
import * as rssRoute from "~/routes/blog/rss";
import * as shareRoute from "~/routes/share/blog-share";
import * as robotsRoute from "~/routes/site/robots";
import * as sitemapRoute from "~/routes/site/sitemap";
import { ORIGIN, args, formPost, get, jsonPost, readJson, type ApiError, testContext } from "../support/http";
import { freshApp } from "../support/reset";
import { expectSharePagePolicy } from "../support/share-pages";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";

const KEY = "test-admin-key-0123456789";
const ADMIN = { "X-Admin-Key": KEY };
const STAFF_IP = "10.9.9.9";
const SPEC_FIELDS = ["slug", "title", "summary", "author", "date", "tags", "image", "url"];
const COUNT_KEYS = ["like", "love", "insightful", "pray", "clap"];

const VESPERS = {
  slug: "friday-night",
  title: "Friday night on the walk",
  summary: "Tea, songs and listening.",
  author: "Grace Wanjiru",
  date: "2025-10-17",
  tags: ["vespers", "outreach"],
  image: "/images/blog/vespers-walk.webp",
  url: "https://www.linkedin.com/pulse/friday-night",
  audioVideoId: "jNQXAC9IVRw",
  contentHtml: "<p>Every other Friday…</p>",
};
const CAMPUS = {
  slug: "campus-week",
  title: "Campus mission week",
  summary: "Five days, one university.",
  author: "Brian Ochieng",
  date: "2025",
  tags: ["campus"],
  image: "https://cdn.example.org/campus.jpg",
  url: "https://www.linkedin.com/pulse/campus",
};

let ip = 0;
/** A different client address per call, so per-address limits stay out of the way. */
const nextIp = () => `10.3.${Math.floor(++ip / 250)}.${ip % 250}`;

async function expectApiError(res: Response, status: number) {
  const { body } = await readJson<ApiError>(res);
  expect(res.status).toBe(status);
  expect(body.ok).toBe(false);
  expect(Object.keys(body).sort()).toEqual(["error", "ok"]);
  expect(body.error.length).toBeGreaterThan(0);
  return body.error;
}

const saveApi = (body: unknown, headers: Record<string, string> = ADMIN, address = STAFF_IP) =>
  blogsApi.action(args(jsonPost("/api/blogs.php", body, headers), address));
const react = (body: Record<string, unknown>, headers: Record<string, string> = {}, address = nextIp()) =>
  reactionsApi.action(args(jsonPost("/api/reactions.php", body, headers), address));
const reactions = (query: string, headers: Record<string, string> = {}) => reactionsApi.loader(args(get(`/api/reactions.php${query}`, headers)));
const votePost = (body: Record<string, unknown>, headers: Record<string, string> = {}, address = nextIp()) =>
  pollsApi.action(args(jsonPost("/api/polls.php", body, headers), address));
const polls = (query: string, headers: Record<string, string> = {}) => pollsApi.loader(args(get(`/api/polls.php${query}`, headers)));
const notify = (body: unknown, headers: Record<string, string> = ADMIN, address = STAFF_IP) =>
  notifyApi.action(args(jsonPost("/api/notify_new_blog.php", body, headers), address));
const generateShares = (headers: Record<string, string> = ADMIN, address = STAFF_IP) =>
  generateShareApi.action(args(jsonPost("/api/generate_blog_share.php", {}, headers), address));
const sharePage = (file: string) =>
  shareRoute.loader({
    request: new Request(`${ORIGIN}/share/blogs/${file}`),
    params: { file },
    context: testContext(),
  } as unknown as Parameters<typeof shareRoute.loader>[0]);

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await smtp.close();
});

let db: Db;
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: smtp.url });
  smtp.clear();
  await savePosts(db, [VESPERS, CAMPUS].map((p) => BlogPostSchema.parse(p)));
});

const activity = (type: string) =>
  db.selectFrom("activity").select(["type", "meta", "actor_ip"]).where("type", "=", type).orderBy("id").execute();

describe("GET /data/blogs.json and GET /api/blogs.php", () => {
  it("/data/blogs.json answers the array of posts with the spec's fields, not cached", async () => {
    const res = await blogsDataApi.loader(args(get("/data/blogs.json")));
    const { status, headers, body } = await readJson<BlogPost[]>(res);
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-cache");
    expect(body).toEqual([VESPERS, CAMPUS]);
    expect(Object.keys(body[1]!).sort()).toEqual([...SPEC_FIELDS].sort());
  });

  it("/api/blogs.php answers the same array for the editor, with no-store", async () => {
    const { status, headers, body } = await readJson<BlogPost[]>(await blogsApi.loader(args(get("/api/blogs.php"))));
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body).toEqual([VESPERS, CAMPUS]);
  });

  it("other methods get a JSON 405", async () => {
    await expectApiError(await blogsDataApi.action(args(jsonPost("/data/blogs.json", {}))), 405);
  });
});

describe("POST /api/blogs.php (admin)", () => {
  it("replaces the posts from {items}, answers {ok:true,count}, sanitises HTML, creates polls, logs blogs.save", async () => {
    const unsafe = `<p>Hi</p><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>`;
    const items = [{ ...CAMPUS }, { slug: "new-post", title: "A new post", tags: ["campus"], contentHtml: unsafe }];
    const { status, body } = await readJson(await saveApi({ items }));
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, count: 2 });

    const list = (await readJson<BlogPost[]>(await blogsApi.loader(args(get("/api/blogs.php"))))).body;
    expect(list.map((p) => p.slug)).toEqual(["campus-week", "new-post"]);
    expect(list[1]).toMatchObject({ date: String(new Date().getFullYear()), contentHtml: `<p>Hi</p><img src="x" loading="lazy" /><a>x</a>` });
    expect((await readJson(await polls(`?id=${postPollId("new-post")}`))).body).toMatchObject({ ok: true, options: { Yes: 0, No: 0 } });
    expect(await activity("blogs.save")).toEqual([{ type: "blogs.save", meta: JSON.stringify({ count: 2 }), actor_ip: STAFF_IP }]);
  });

  it("accepts legacy shapes: tags as comma text, null for an absent field", async () => {
    const items = [{ ...CAMPUS, tags: " campus, students ,", audioVideoId: null, contentHtml: null }];
    expect((await readJson(await saveApi({ items }))).body).toEqual({ ok: true, count: 1 });
    const [post] = (await readJson<BlogPost[]>(await blogsApi.loader(args(get("/api/blogs.php"))))).body;
    expect(post).toEqual({ ...CAMPUS, tags: ["campus", "students"] });
  });

  it.each([
    ["a malformed slug", [{ ...CAMPUS, slug: "Campus Week" }], /^Post 1 \(Campus Week\): Slugs use lower-case letters/],
    ["a shared slug", [CAMPUS, { ...VESPERS, slug: "campus-week" }], /^Two posts share the slug "campus-week"\.$/],
    ["a missing title", [CAMPUS, { slug: "untitled" }], /^Post 2 \(untitled\): The title must be a string\.$/],
    ["an unsafe image address", [{ ...CAMPUS, image: "javascript:alert(1)" }], /^Post 1 \(campus-week\): Use a path on this site/],
    ["a title of the wrong type", [{ ...CAMPUS, title: 5 }], /^Post 1 \(campus-week\): The title must be a string\.$/],
  ])("refuses %s with a 400 that names the post, and changes nothing", async (_, items, message) => {
    expect(await expectApiError(await saveApi({ items }), 400)).toMatch(message);
    expect((await readJson<BlogPost[]>(await blogsApi.loader(args(get("/api/blogs.php"))))).body.map((p) => p.slug)).toEqual([
      "friday-night",
      "campus-week",
    ]);
    expect(await activity("blogs.save")).toEqual([]);
  });

  it("refuses a body without an items list", async () => {
    expect(await expectApiError(await saveApi({ posts: [] }), 400)).toBe("items must be a list of blog posts.");
    expect(await expectApiError(await saveApi("[1,2]"), 400)).toBe("Request body must be a JSON object.");
    expect(await expectApiError(await saveApi("{nope"), 400)).toBe("Request body must be valid JSON.");
  });

  it("needs the admin key, from this site", async () => {
    expect(await expectApiError(await saveApi({ items: [] }, {}), 401)).toBe("Admin key required.");
    expect(await expectApiError(await saveApi({ items: [] }, { "X-Admin-Key": "wrong-key-wrong-key" }, nextIp()), 401)).toBe(
      "That admin key is not right.",
    );
    const crossSite = { ...ADMIN, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
    expect(await expectApiError(await saveApi({ items: [] }, crossSite), 403)).toBe("Admin calls are accepted from this site only.");
    expect(await db.selectFrom("blog_posts").select("slug").execute()).toHaveLength(2);
  });
});

describe("POST /api/generate_blog_share.php (admin)", () => {
  it("answers {ok:true, count} with the number of posts that have a share page; logs blogs.generate_share", async () => {
    const { status, body } = await readJson(await generateShares());
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, count: 2 });
    expect(await activity("blogs.generate_share")).toEqual([
      { type: "blogs.generate_share", meta: JSON.stringify({ count: 2 }), actor_ip: STAFF_IP },
    ]);
  });

  it("needs the admin key; GET is a JSON 405", async () => {
    expect(await expectApiError(await generateShares({}), 401)).toBe("Admin key required.");
    await expectApiError(await generateShareApi.loader(args(get("/api/generate_blog_share.php", ADMIN))), 405);
    expect(await activity("blogs.generate_share")).toEqual([]);
  });
});

describe("POST /api/notify_new_blog.php (admin)", () => {
  async function addSubscribers(active: string[], unsubscribed: string[] = []) {
    const now = "2025-01-01T00:00:00.000Z";
    const row = (email: string, status: "active" | "unsubscribed") => ({
      email,
      status,
      source: "blogs:index",
      token: `token-${email.replace(/[^a-z0-9]/g, "")}`,
      created_at: now,
      updated_at: now,
      unsubscribed_at: status === "active" ? null : now,
    });
    await db
      .insertInto("subscribers")
      .values([...active.map((e) => row(e, "active")), ...unsubscribed.map((e) => row(e, "unsubscribed"))])
      .execute();
  }

  it("answers at once {ok:true, recipients, notification}; every active subscriber then gets the post", async () => {
    await addSubscribers(["amina@example.org", "brian@example.org"], ["gone@example.org"]);
    const { status, body } = await readJson<{ ok: boolean; recipients: number; notification: number }>(await notify({ slug: "friday-night" }));
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, recipients: 2, notification: expect.any(Number) });
    expect(JSON.stringify(body)).not.toContain("@");

    await vi.waitFor(async () => expect((await notificationStatus(db, body.notification))?.queued).toBe(2));
    await drainOutbox();
    expect(smtp.messages.map((m) => m.envelope.to[0]).sort()).toEqual(["amina@example.org", "brian@example.org"]);
    for (const { mail } of smtp.messages) {
      expect(mail.subject).toContain(VESPERS.title);
      expect(mail.text).toContain("http://site.test/blogs/friday-night");
      expect(mail.text).toMatch(/http:\/\/site\.test\/unsubscribe\?token=token-/);
    }
    const [logged] = await activity("blogs.notify");
    expect(logged).toMatchObject({ actor_ip: STAFF_IP });
    expect(JSON.parse(logged!.meta)).toEqual({ slug: "friday-night", notification: body.notification, recipients: 2 });
  });

  it("an unknown slug is a 404; a missing one a 400; nothing is recorded", async () => {
    expect(await expectApiError(await notify({ slug: "no-such-post" }), 404)).toBe("Unknown post.");
    expect(await expectApiError(await notify({ slug: "../etc" }), 404)).toBe("Unknown post.");
    expect(await expectApiError(await notify({}), 400)).toBe("slug is required.");
    expect(await db.selectFrom("blog_notifications").selectAll().execute()).toEqual([]);
    expect(await activity("blogs.notify")).toEqual([]);
  });

  it("needs the admin key", async () => {
    expect(await expectApiError(await notify({ slug: "friday-night" }, {}), 401)).toBe("Admin key required.");
    expect(await db.selectFrom("blog_notifications").selectAll().execute()).toEqual([]);
  });
});

describe("/api/reactions.php", () => {
  const CID_A = "0123456789abcdef0123456789abcdef";
  const CID_B = "fedcba9876543210fedcba9876543210";

  it("GET ?slug= answers the counts, as {counts} and at the top level", async () => {
    const { status, body } = await readJson<Record<string, unknown>>(await reactions("?slug=friday-night"));
    expect(status).toBe(200);
    const zero = { like: 0, love: 0, insightful: 0, pray: 0, clap: 0 };
    expect(body).toMatchObject({ ok: true, counts: zero, ...zero });
  });

  it("GET: an unknown post is a 404, a missing slug a 400", async () => {
    expect(await expectApiError(await reactions("?slug=no-such-post"), 404)).toBe("Unknown post.");
    expect(await expectApiError(await reactions("?slug=%3Cscript%3E"), 404)).toBe("Unknown post.");
    expect(await expectApiError(await reactions(""), 400)).toBe("slug is required.");
  });

  it("POST adds the caller's reaction once; undo removes only the caller's own; never below 0", async () => {
    const post = async (cid: string, reaction: string, undo = false) =>
      (await readJson<{ ok: boolean; counts: Record<string, number>; love: number }>(await react({ slug: "friday-night", reaction, undo }, { "X-Client-Id": cid }))).body;
    expect((await post(CID_A, "love")).counts.love).toBe(1);
    expect((await post(CID_A, "love")).counts.love).toBe(1);
    const both = await post(CID_B, "love");
    expect(both).toMatchObject({ ok: true, love: 2, counts: { love: 2 } });
    expect(Object.keys(both.counts).sort()).toEqual([...COUNT_KEYS].sort());
    expect((await post(CID_A, "love", true)).counts.love).toBe(1);
    expect((await post(CID_A, "love", true)).counts.love).toBe(1); // B's stays
    expect((await post(CID_A, "clap", true)).counts.clap).toBe(0);
  });

  it("the client id comes from X-Client-Id first, then the body's cid, then the cid cookie", async () => {
    const mine = async (res: Response) => (await readJson<{ mine: string[] }>(res)).body.mine;
    await react({ slug: "friday-night", reaction: "like", cid: CID_B }, { "X-Client-Id": CID_A });
    expect(await mine(await reactions("?slug=friday-night", { "X-Client-Id": CID_A }))).toEqual(["like"]);
    expect(await mine(await reactions("?slug=friday-night", { "X-Client-Id": CID_B }))).toEqual([]);

    await react({ slug: "friday-night", reaction: "pray", cid: CID_B }, { Cookie: `cid=${CID_A}` });
    expect(await mine(await reactions("?slug=friday-night", { "X-Client-Id": CID_B }))).toEqual(["pray"]);

    await react({ slug: "friday-night", reaction: "clap" }, { Cookie: `theme=dark; cid=${CID_A}` });
    expect((await mine(await reactions("?slug=friday-night", { Cookie: `cid=${CID_A}` }))).sort()).toEqual(["clap", "like"]);

    // Form posts (undo as text) work too.
    const form = await reactionsApi.action(args(formPost("/api/reactions.php", { slug: "friday-night", reaction: "clap", undo: "true", cid: CID_A }), nextIp()));
    expect((await readJson<{ clap: number }>(form)).body.clap).toBe(0);
  });

  it("POST refuses: no client id (400), a bad reaction (400), an unknown post (404)", async () => {
    expect(await expectApiError(await react({ slug: "friday-night", reaction: "like" }), 400)).toBe("Client id required.");
    expect(await expectApiError(await react({ slug: "friday-night", reaction: "like" }, { "X-Client-Id": "x" }), 400)).toBe("Client id required.");
    expect(await expectApiError(await react({ slug: "friday-night", reaction: "angry" }, { "X-Client-Id": CID_A }), 400)).toBe(
      "reaction must be one of like, love, insightful, pray, clap.",
    );
    expect(await expectApiError(await react({ slug: "no-such-post", reaction: "like" }, { "X-Client-Id": CID_A }), 404)).toBe("Unknown post.");
    expect(await db.selectFrom("blog_reactions").selectAll().execute()).toEqual([]);
  });

  it("POST is limited per address (120 a minute)", async () => {
    const address = "10.77.0.1";
    for (let i = 0; i < 120; i++) {
      const res = await react({ slug: "friday-night", reaction: "like", undo: i % 2 === 1 }, { "X-Client-Id": CID_A }, address);
      expect(res.status).toBe(200);
    }
    const res = await react({ slug: "friday-night", reaction: "like" }, { "X-Client-Id": CID_A }, address);
    expect(await expectApiError(res, 429)).toMatch(/^Too many attempts/);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("GET ?mode=all (admin) answers {ok, slugs}; without the key a 401", async () => {
    await react({ slug: "campus-week", reaction: "insightful" }, { "X-Client-Id": CID_A });
    const { body } = await readJson(await reactions("?mode=all", ADMIN));
    expect(body).toEqual({ ok: true, slugs: { "campus-week": { like: 0, love: 0, insightful: 1, pray: 0, clap: 0 } } });
    expect(await expectApiError(await reactions("?mode=all"), 401)).toBe("Admin key required.");
  });
});

describe("/api/polls.php", () => {
  const CID = "abcdefabcdefabcdefabcdefabcdef12";
  const poll = postPollId("friday-night");
  const feedback = feedbackPollId("friday-night");

  it("GET ?id= answers {ok:true, options}", async () => {
    const { status, body } = await readJson(await polls(`?id=${poll}`));
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, options: { Yes: 0, No: 0 } });
    const rated = (await readJson<{ options: Record<string, number> }>(await polls(`?id=${feedback}`))).body.options;
    expect(Object.keys(rated)).toEqual(feedbackPollOptions());
  });

  it("GET: an unknown poll is a 404; no id is 'Poll id required'", async () => {
    expect(await expectApiError(await polls("?id=nothing-here"), 404)).toBe("Unknown poll.");
    expect(await expectApiError(await polls(""), 400)).toBe("Poll id required");
  });

  it("POST votes in a defined poll and option, once per client per option", async () => {
    const once = await readJson(await votePost({ id: poll, option: "Yes" }, { "X-Client-Id": CID }));
    expect(once.status).toBe(200);
    expect(once.body).toMatchObject({ ok: true, options: { Yes: 1, No: 0 } });
    expect((await readJson(await votePost({ id: poll, option: "Yes", cid: CID }))).body).toMatchObject({ options: { Yes: 1, No: 0 } });
  });

  it("POST in rating mode (name:rating) replaces the client's earlier rating of that item", async () => {
    await votePost({ id: feedback, option: "Inspired me:3" }, { "X-Client-Id": CID });
    const { body } = await readJson<{ options: Record<string, number> }>(await votePost({ id: feedback, option: "Inspired me:5" }, { "X-Client-Id": CID }));
    expect(body.options).toMatchObject({ "Inspired me:3": 0, "Inspired me:5": 1 });
  });

  it("a public caller can never create a poll or an option: question and initialOptions are ignored", async () => {
    const newPoll = { id: "made-up-poll", option: "Yes", question: "Mine?", initialOptions: "Yes,No" };
    expect(await expectApiError(await votePost(newPoll, { "X-Client-Id": CID }), 404)).toBe("Unknown poll.");
    const newOption = { id: poll, option: "Maybe", question: "What do you think?", initialOptions: "Yes,No,Maybe" };
    expect(await expectApiError(await votePost(newOption, { "X-Client-Id": CID }), 400)).toBe("Unknown option.");
    expect(await db.selectFrom("polls").select("id").where("id", "=", "made-up-poll").execute()).toEqual([]);
    expect((await readJson(await polls(`?id=${poll}`))).body).toMatchObject({ options: { Yes: 0, No: 0 } });
    expect(await activity("polls.ensure")).toEqual([]);
  });

  it("POST refuses a vote without a client id, id or option", async () => {
    expect(await expectApiError(await votePost({ id: poll, option: "Yes" }), 400)).toBe("Client id required.");
    expect(await expectApiError(await votePost({ option: "Yes" }, { "X-Client-Id": CID }), 400)).toBe("Poll id required");
    expect(await expectApiError(await votePost({ id: poll }, { "X-Client-Id": CID }), 400)).toBe("Choose an option.");
  });

  it("admin POST (X-Admin-Key) creates or ensures a poll: options comma-split, the seed added; logs polls.ensure", async () => {
    const res = await votePost({ id: "vespers-night", question: "Which night?", initialOptions: "Friday, Saturday", option: "Friday" }, ADMIN, STAFF_IP);
    const { status, body } = await readJson(res);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, options: { Friday: 0, Saturday: 0 } });
    expect((await readJson(await votePost({ id: "seedless", question: "" }, ADMIN, STAFF_IP))).body).toMatchObject({ ok: true, options: { A: 0 } });
    const [logged] = await activity("polls.ensure");
    expect(logged).toMatchObject({ actor_ip: STAFF_IP });
    expect(JSON.parse(logged!.meta)).toEqual({ id: "vespers-night", options: ["Friday", "Saturday"] });

    // The old engagement screen reads a map keyed by poll id, as the old site answered.
    const all = (await readJson<{ ok: boolean; polls: Record<string, { question: string; options: Record<string, number> }> }>(await polls("?mode=all", ADMIN))).body;
    expect(all.ok).toBe(true);
    expect(all.polls["vespers-night"]).toEqual({ question: "Which night?", options: { Friday: 0, Saturday: 0 } });
    expect(Object.keys(all.polls)).toEqual(expect.arrayContaining([poll, feedback, "seedless"]));
    const list = (await readJson<{ ok: boolean; polls: Array<{ id: string; question: string; options: Record<string, number> }> }>(await polls("?mode=all&shape=list", ADMIN))).body;
    expect(list.polls).toContainEqual({ id: "vespers-night", question: "Which night?", options: { Friday: 0, Saturday: 0 } });
  });

  it("admin POST: 'Poll id required' when the id is empty or missing", async () => {
    expect(await expectApiError(await votePost({ id: "  ", question: "Q", initialOptions: "A,B" }, ADMIN, STAFF_IP), 400)).toBe("Poll id required");
    expect(await expectApiError(await votePost({ question: "Q" }, ADMIN, STAFF_IP), 400)).toBe("Poll id required");
  });

  it("a wrong or empty X-Admin-Key is refused (never treated as a public vote); mode=all needs the key", async () => {
    const body = { id: "sneaky", question: "Q", initialOptions: "A,B", option: "A", cid: CID };
    expect(await expectApiError(await votePost(body, { "X-Admin-Key": "wrong-key-wrong-key" }), 401)).toBe("That admin key is not right.");
    expect(await expectApiError(await votePost(body, { "X-Admin-Key": "" }), 401)).toBe("Admin key required.");
    expect(await db.selectFrom("polls").select("id").where("id", "=", "sneaky").execute()).toEqual([]);
    expect(await expectApiError(await polls("?mode=all"), 401)).toBe("Admin key required.");
  });
});

describe("/share/blogs/{slug}.html", () => {
  it("answers escaped link-preview tags with absolute addresses and a refresh to /blogs/{slug}?src=share", async () => {
    await savePosts(db, [BlogPostSchema.parse({ ...VESPERS, title: `Tea & "songs" <b>live</b>`, summary: `It's <script>x</script>` })]);
    const res = await sharePage("friday-night.html");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expectSharePagePolicy(res);
    const html = await res.text();
    expect(html).toContain(`<title>Tea &amp; &quot;songs&quot; &lt;b&gt;live&lt;/b&gt; | `);
    expect(html).toContain(`<meta property="og:title" content="Tea &amp; &quot;songs&quot; &lt;b&gt;live&lt;/b&gt;">`);
    expect(html).toContain(`<meta name="description" content="It&#39;s &lt;script&gt;x&lt;/script&gt;">`);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>live");
    expect(html).toContain(`<meta property="og:type" content="article">`);
    expect(html).toContain(`<meta property="og:image" content="http://site.test/images/blog/vespers-walk.webp">`);
    expect(html).toContain(`<meta property="og:url" content="http://site.test/share/blogs/friday-night.html">`);
    expect(html).toContain(`<meta name="twitter:card" content="summary_large_image">`);
    expect(html).toContain(`<meta http-equiv="refresh" content="0; url=/blogs/friday-night?src=share">`);
    expect(html).toContain(`<a href="/blogs/friday-night?src=share">`);
  });

  it("keeps an https image as it is, and uses the default cover when there is none", async () => {
    expect(await (await sharePage("campus-week.html")).text()).toContain(`<meta property="og:image" content="https://cdn.example.org/campus.jpg">`);
    await savePosts(db, [BlogPostSchema.parse({ slug: "bare", title: "Bare" })]);
    expect(await (await sharePage("bare.html")).text()).toContain(`<meta property="og:image" content="http://site.test/images/blog/default-cover.webp">`);
  });

  it.each(["no-such-post.html", "friday-night.htm", "Friday-Night.html", "..%2Ffriday-night.html", "friday-night", ".html", `${"a".repeat(81)}.html`])(
    "%s is a 404 page, never cached",
    async (file) => {
      const res = await sharePage(file);
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expectSharePagePolicy(res);
      expect(await res.text()).toContain("Article not found");
    },
  );
});

describe("feeds", () => {
  it("/blogs/rss.xml is RSS 2.0 with absolute links, guid, pubDate when the date names a day, escaped values", async () => {
    await savePosts(db, [
      BlogPostSchema.parse({ ...VESPERS, title: "Tea & <songs>", summary: `"Quoted" & 'single' <i>` }),
      BlogPostSchema.parse(CAMPUS),
    ]);
    const res = await rssRoute.loader(args(get("/blogs/rss.xml")));
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    const items = xml.split("<item>").slice(1);
    expect(items).toHaveLength(2);
    expect(items[0]).toContain("<title>Tea &amp; &lt;songs&gt;</title>");
    expect(items[0]).toContain("<link>http://site.test/blogs/friday-night</link>");
    expect(items[0]).toContain(`<guid isPermaLink="true">http://site.test/blogs/friday-night</guid>`);
    expect(items[0]).toContain("<pubDate>Fri, 17 Oct 2025 00:00:00 GMT</pubDate>");
    expect(items[0]).toContain("<description>&quot;Quoted&quot; &amp; &apos;single&apos; &lt;i&gt;</description>");
    expect(items[1]).toContain("<link>http://site.test/blogs/campus-week</link>");
    expect(items[1]).not.toContain("<pubDate>"); // '2025' names no day
    expect(xml).not.toMatch(/<songs>|<i>/);
  });

  it("/sitemap.xml lists the public pages and every post, absolute", async () => {
    const res = await sitemapRoute.loader(args(get("/sitemap.xml")));
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const pages = ["/", "/about", "/join", "/privacy", "/vespers", "/ministry", "/event", "/badges", "/merchandise", "/blogs"];
    expect(locs).toEqual([...pages.map((p) => `http://site.test${p}`), "http://site.test/blogs/friday-night", "http://site.test/blogs/campus-week"]);
    expect(xml).not.toMatch(/admin|\/api\//);
  });

  it("/robots.txt allows all but the staff screens and the API, and names the sitemap", async () => {
    const res = robotsRoute.loader();
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await res.text()).split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "User-agent: *",
        "Allow: /",
        "Disallow: /admin",
        "Disallow: /api/",
        "Disallow: /blogs/admin",
        "Disallow: /merchandise/admin",
        "Disallow: /event/previews",
        "Sitemap: http://site.test/sitemap.xml",
      ]),
    );
  });
});
