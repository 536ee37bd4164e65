import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nowIso, type Db } from "~/lib/db/db.server";
import { drainOutbox, enqueueMail } from "~/lib/mail/email.server";
import { DomainError } from "~/lib/core/domain-error";
import { httpErrorOf, type HttpError } from "~/lib/http/http.server";
import { freshApp } from "../../../tests/support/reset";
import { headerText, startSmtpReceiver, type SmtpReceiver } from "../../../tests/support/smtp";
import { DEFAULT_POLL_QUESTION, feedbackPollId, feedbackPollOptions, postPollId } from "./blog";
import { BlogListSchema, BlogPostSchema, PollCreateSchema, PollVoteSchema, type BlogPostInput } from "./blog.schema";
import {
  allPolls,
  allReactionCounts,
  clientReactions,
  clientVotes,
  ensurePoll,
  getPost,
  listPosts,
  notificationStatus,
  notifyNewBlog,
  startNotifyWorker,
  stopNotifyWorker,
  pollCounts,
  reactionCounts,
  savePosts,
  toggleReaction,
  vote,
} from "./blog.server";

const input = (slug: string, fields: Partial<BlogPostInput> = {}): BlogPostInput =>
  BlogPostSchema.parse({
    slug,
    title: `Title of ${slug}`,
    summary: `Summary of ${slug}`,
    author: "Grace Wanjiru",
    date: "2025-10-17",
    tags: ["vespers"],
    image: "/images/blog/a.webp",
    url: "https://www.linkedin.com/pulse/x",
    ...fields,
  });

const A = "client-aaaaaaaa";
const B = "client-bbbbbbbb";
const C = "client-cccccccc";

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
  await savePosts(db, [input("friday-night"), input("campus-week", { tags: ["campus"] })]);
});

/** What a call threw (the feature's DomainError), as the status it maps to and its message. */
async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof DomainError) return httpErrorOf(e)!;
    throw e;
  }
  throw new Error("expected the call to fail");
}

describe("schemas", () => {
  it("a post's date defaults to the current year as text", () => {
    const year = String(new Date().getFullYear());
    expect(BlogPostSchema.parse({ slug: "a", title: "T" }).date).toBe(year);
    expect(BlogPostSchema.parse({ slug: "a", title: "T", date: "  " }).date).toBe(year);
    expect(BlogPostSchema.parse({ slug: "a", title: "T", date: "17 Oct 2025" }).date).toBe("17 Oct 2025");
  });

  it("slugs are well-formed and unique within a list", () => {
    for (const slug of ["Friday", "a b", "-a", "a--b", "a/b", "", "x".repeat(81)]) {
      expect(BlogPostSchema.safeParse({ slug, title: "T" }).success, slug).toBe(false);
    }
    const dup = BlogListSchema.safeParse([{ slug: "a", title: "One" }, { slug: "a", title: "Two" }]);
    expect(dup.success).toBe(false);
    expect(dup.error?.issues[0]).toMatchObject({ path: [1, "slug"], message: 'Two posts share the slug "a".' });
  });

  it("images are site paths or https; the LinkedIn link is https; a blank audio id is none", () => {
    const ok = (fields: object) => BlogPostSchema.safeParse({ slug: "a", title: "T", ...fields }).success;
    expect(ok({ image: "/images/blog/a.webp" })).toBe(true);
    expect(ok({ image: "https://cdn.example/a.jpg" })).toBe(true);
    expect(ok({ image: "javascript:alert(1)" })).toBe(false);
    expect(ok({ image: "//evil.example/a.jpg" })).toBe(false);
    expect(ok({ image: "http://plain.example/a.jpg" })).toBe(false);
    expect(ok({ url: "javascript:alert(1)" })).toBe(false);
    expect(BlogPostSchema.parse({ slug: "a", title: "T", audioVideoId: "" }).audioVideoId).toBeUndefined();
  });

  it("'Poll id required' when a poll id is empty", () => {
    for (const schema of [PollCreateSchema, PollVoteSchema]) {
      const r = schema.safeParse({ id: "   ", option: "A" });
      expect(r.error?.issues[0]?.message).toBe("Poll id required");
    }
  });
});

describe("savePosts", () => {
  it("stores the list in order and replaces what was there (a post left out is removed)", async () => {
    await savePosts(db, [input("c"), input("a"), input("b")]);
    expect((await listPosts(db)).map((p) => p.slug)).toEqual(["c", "a", "b"]);
    expect(await getPost(db, "friday-night")).toBeUndefined();
  });

  it("sanitises contentHtml before it is stored, and a blank one is none", async () => {
    await savePosts(db, [
      input("unsafe", { contentHtml: `<p>Hi</p><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>` }),
      input("blank", { contentHtml: "   " }),
    ]);
    const row = await db.selectFrom("blog_posts").select(["slug", "content_html"]).orderBy("sort").execute();
    expect(row).toEqual([
      { slug: "unsafe", content_html: `<p>Hi</p><img src="x" loading="lazy" /><a>x</a>` },
      { slug: "blank", content_html: null },
    ]);
    expect((await getPost(db, "unsafe"))?.contentHtml).toBe(`<p>Hi</p><img src="x" loading="lazy" /><a>x</a>`);
    expect(await getPost(db, "blank")).not.toHaveProperty("contentHtml");
  });

  it("gives back the spec's fields, optional ones only when set", async () => {
    await savePosts(db, [input("with-audio", { audioVideoId: "jNQXAC9IVRw", contentHtml: "<p>x</p>" }), input("plain")]);
    const [withAudio, plain] = await listPosts(db);
    expect(Object.keys(withAudio!).sort()).toEqual(
      ["slug", "title", "summary", "author", "date", "tags", "image", "url", "audioVideoId", "contentHtml"].sort(),
    );
    expect(Object.keys(plain!).sort()).toEqual(["slug", "title", "summary", "author", "date", "tags", "image", "url"].sort());
  });

  it("creates each post's feedback poll (four items rated 1-5) and question poll (Yes, No)", async () => {
    await savePosts(db, [input("new-post")]);
    expect(await pollCounts(db, feedbackPollId("new-post"))).toEqual(Object.fromEntries(feedbackPollOptions().map((o) => [o, 0])));
    expect(await pollCounts(db, postPollId("new-post"))).toEqual({ Yes: 0, No: 0 });
    const poll = await db.selectFrom("polls").select("question").where("id", "=", postPollId("new-post")).executeTakeFirst();
    expect(poll?.question).toBe(DEFAULT_POLL_QUESTION);
  });

  it("saving again keeps reactions and votes with their slugs", async () => {
    await toggleReaction(db, { slug: "friday-night", reaction: "love", undo: false, cid: A });
    await vote(db, { id: postPollId("friday-night"), option: "Yes", cid: A });
    await savePosts(db, [input("friday-night", { title: "Renamed" })]);
    expect((await reactionCounts(db, "friday-night")).love).toBe(1);
    expect((await pollCounts(db, postPollId("friday-night")))?.Yes).toBe(1);
  });
});

describe("reactions", () => {
  const react = (cid: string, reaction: "like" | "love" | "pray" = "like", undo = false, slug = "friday-night") =>
    toggleReaction(db, { slug, reaction, undo, cid });

  it("counts every kind, starting at 0", async () => {
    expect(await reactionCounts(db, "friday-night")).toEqual({ like: 0, love: 0, insightful: 0, pray: 0, clap: 0 });
  });

  it("one of each kind per client: reacting twice counts once; kinds are separate", async () => {
    await react(A);
    expect((await react(A)).like).toBe(1);
    const counts = await react(A, "love");
    expect(counts).toMatchObject({ like: 1, love: 1 });
    expect((await react(B)).like).toBe(2);
    expect(await clientReactions(db, "friday-night", A)).toEqual(expect.arrayContaining(["like", "love"]));
  });

  it("undo removes only the caller's own reaction", async () => {
    await react(A);
    await react(B);
    expect((await react(C, "like", true)).like).toBe(2); // C never reacted: nothing changes
    expect((await react(A, "like", true)).like).toBe(1);
    expect(await clientReactions(db, "friday-night", B)).toEqual(["like"]);
    expect(await clientReactions(db, "friday-night", A)).toEqual([]);
  });

  it("counts never go below 0", async () => {
    expect((await react(A, "pray", true)).pray).toBe(0);
    await react(A, "pray");
    await react(A, "pray", true);
    expect((await react(A, "pray", true)).pray).toBe(0);
  });

  it("an unknown post is a 404 and nothing is stored", async () => {
    const e = await failure(react(A, "like", false, "no-such-post"));
    expect([e.status, e.message]).toEqual([404, "Unknown post."]);
    expect(await db.selectFrom("blog_reactions").selectAll().execute()).toEqual([]);
  });

  it("the staff view lists the posts that have reactions", async () => {
    await react(A, "love");
    await react(B, "love", false, "campus-week");
    expect(await allReactionCounts(db)).toEqual({
      "friday-night": { like: 0, love: 1, insightful: 0, pray: 0, clap: 0 },
      "campus-week": { like: 0, love: 1, insightful: 0, pray: 0, clap: 0 },
    });
  });
});

describe("polls", () => {
  const poll = postPollId("friday-night");
  const feedback = feedbackPollId("friday-night");

  it("a vote counts once per client per option", async () => {
    await vote(db, { id: poll, option: "Yes", cid: A });
    await vote(db, { id: poll, option: "Yes", cid: A });
    expect(await vote(db, { id: poll, option: "Yes", cid: B })).toEqual({ Yes: 2, No: 0 });
    expect(await clientVotes(db, poll, A)).toEqual(["Yes"]);
  });

  it("a question has one answer per visitor: choosing No after Yes moves the vote, it does not add one", async () => {
    await vote(db, { id: poll, option: "Yes", cid: A });
    await vote(db, { id: poll, option: "Yes", cid: B });
    expect(await vote(db, { id: poll, option: "No", cid: A })).toEqual({ Yes: 1, No: 1 });
    expect(await clientVotes(db, poll, A)).toEqual(["No"]);
    expect(await vote(db, { id: poll, option: "No", cid: A })).toEqual({ Yes: 1, No: 1 });
  });

  it("an unknown poll is a 404, an unknown option a 400; neither is created", async () => {
    const noPoll = await failure(vote(db, { id: "blog-nothing-poll", option: "Yes", cid: A }));
    expect([noPoll.status, noPoll.message]).toEqual([404, "Unknown poll."]);
    const noOption = await failure(vote(db, { id: poll, option: "Maybe", cid: A }));
    expect([noOption.status, noOption.message]).toEqual([400, "Unknown option."]);
    expect(await pollCounts(db, poll)).toEqual({ Yes: 0, No: 0 });
    expect(await pollCounts(db, "blog-nothing-poll")).toBeUndefined();
    expect(await db.selectFrom("poll_votes").selectAll().execute()).toEqual([]);
  });

  it("a rating replaces the client's earlier rating of the same item, and only that", async () => {
    await vote(db, { id: feedback, option: "Inspired me:4", cid: A });
    await vote(db, { id: feedback, option: "Prayed:3", cid: A });
    await vote(db, { id: feedback, option: "Prayed:3", cid: B });
    const counts = await vote(db, { id: feedback, option: "Prayed:5", cid: A });
    expect(counts).toMatchObject({ "Inspired me:4": 1, "Prayed:3": 1, "Prayed:5": 1 });
    expect((await clientVotes(db, feedback, A)).sort()).toEqual(["Inspired me:4", "Prayed:5"]);
  });

  it("a rating of an item whose name has _ or % replaces the earlier one too", async () => {
    await ensurePoll(db, { id: "team_poll", question: "Rate", initialOptions: "Will_share:1,Will_share:2,100%:1,100%:2" });
    await vote(db, { id: "team_poll", option: "Will_share:1", cid: A });
    await vote(db, { id: "team_poll", option: "Will_share:2", cid: A });
    await vote(db, { id: "team_poll", option: "100%:1", cid: A });
    await vote(db, { id: "team_poll", option: "100%:2", cid: A });
    expect((await clientVotes(db, "team_poll", A)).sort()).toEqual(["100%:2", "Will_share:2"]);
  });

  it("a rating does not touch a differently-cased item", async () => {
    await ensurePoll(db, { id: "case-poll", question: "Rate", initialOptions: "Prayed:1,prayed:2" });
    await vote(db, { id: "case-poll", option: "Prayed:1", cid: A });
    await vote(db, { id: "case-poll", option: "prayed:2", cid: A });
    expect((await clientVotes(db, "case-poll", A)).sort()).toEqual(["Prayed:1", "prayed:2"]);
  });
});

describe("ensurePoll (staff)", () => {
  it("options are comma-split and trimmed, blanks dropped, the seed option added", async () => {
    const options = await ensurePoll(db, { id: "vespers-night", question: "Which night?", initialOptions: " Friday , Saturday,, ", option: "Sunday" });
    expect(options).toEqual({ Friday: 0, Saturday: 0, Sunday: 0 });
    expect(await allPolls(db)).toContainEqual({ id: "vespers-night", question: "Which night?", options: { Friday: 0, Saturday: 0, Sunday: 0 } });
  });

  it("the seed alone, or 'A' when there are no options; the default question when none is given", async () => {
    expect(await ensurePoll(db, { id: "seed-only", question: "", option: "Yes" })).toEqual({ Yes: 0 });
    expect(await ensurePoll(db, { id: "nothing", question: "" })).toEqual({ A: 0 });
    const poll = await db.selectFrom("polls").select("question").where("id", "=", "nothing").executeTakeFirst();
    expect(poll?.question).toBe(DEFAULT_POLL_QUESTION);
  });

  it("ensuring again adds missing options and keeps the votes and options already there", async () => {
    await ensurePoll(db, { id: "p", question: "Q", initialOptions: "Yes,No" });
    await vote(db, { id: "p", option: "Yes", cid: A });
    expect(await ensurePoll(db, { id: "p", question: "Q2", initialOptions: ["No", "Maybe"] })).toEqual({ Yes: 1, No: 0, Maybe: 0 });
  });
});

describe("notifyNewBlog", () => {
  const addSubscribers = (emails: string[], status: "active" | "unsubscribed" = "active") =>
    db
      .insertInto("subscribers")
      .values(
        emails.map((email, i) => ({
          email,
          status,
          source: "blogs:index",
          token: `tok-${status}-${i}-${email.replace(/[^a-z0-9]/g, "")}`,
          created_at: "2025-01-01T00:00:00.000Z",
          updated_at: "2025-01-01T00:00:00.000Z",
          unsubscribed_at: status === "active" ? null : "2025-02-01T00:00:00.000Z",
        })),
      )
      .execute();

  it("answers at once with the recipient count; the messages are queued afterwards in batches", async () => {
    await addSubscribers(Array.from({ length: 450 }, (_, i) => `reader${i}@example.org`));
    const run = await notifyNewBlog(db, "friday-night");
    expect(run.recipients).toBe(450);
    // Batches of 200 with a pause between: the answer never waits for all of them.
    const early = await notificationStatus(db, run.id);
    expect(early?.queued).toBeLessThan(450);
    await run.done;
    expect(await notificationStatus(db, run.id)).toMatchObject({ id: run.id, slug: "friday-night", recipients: 450, queued: 450 });
    const queued = await db.selectFrom("outbox").select((eb) => eb.fn.countAll<number>().as("n")).where("kind", "=", `blog.notify.${run.id}`).executeTakeFirstOrThrow();
    expect(Number(queued.n)).toBe(450);
  });

  const queuedTo = async (id: number) =>
    (await db.selectFrom("outbox").select("to_address").where("kind", "=", `blog.notify.${id}`).execute()).map((r) => r.to_address);

  it("a run cut off by a crash after its first batch is finished by the next pass (here or another process), no one queued twice", async () => {
    const readers = Array.from({ length: 450 }, (_, i) => `reader${i}@example.org`);
    await addSubscribers(readers);
    // What a process that died after one batch leaves: the run, its progress, its first 200
    // messages, and a lease that has run out.
    const firstBatch = await db.selectFrom("subscribers").select(["id", "email"]).orderBy("id").limit(200).execute();
    const { id } = await db
      .insertInto("blog_notifications")
      .values({ slug: "friday-night", recipients: 450, queued: 200, created_at: "2026-11-25T08:00:00.000Z", after_subscriber_id: firstBatch.at(-1)!.id, claimed_until: "2026-11-25T08:02:00.000Z" })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const s of firstBatch) await enqueueMail(db, { kind: `blog.notify.${id}`, to: s.email, subject: "s", text: "t" });

    await startNotifyWorker(60_000);
    await stopNotifyWorker();
    const to = await queuedTo(id);
    expect(to).toHaveLength(450);
    expect(new Set(to).size).toBe(450);
    expect(await db.selectFrom("blog_notifications").select(["queued", "claimed_until"]).where("id", "=", id).executeTakeFirstOrThrow()).toEqual({ queued: 450, claimed_until: null });
    expect(await notificationStatus(db, id)).toMatchObject({ recipients: 450, queued: 450 });
  });

  it("a run another process is working on (its lease still runs) is left to it until the lease ends", async () => {
    await addSubscribers(["amina@example.org", "brian@example.org"]);
    const { id } = await db
      .insertInto("blog_notifications")
      .values({ slug: "friday-night", recipients: 2, queued: 0, created_at: nowIso(), claimed_until: new Date(Date.now() + 60_000).toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await startNotifyWorker(60_000);
    await stopNotifyWorker();
    expect(await queuedTo(id)).toEqual([]);
    // That process died: once its lease is over, the next pass takes the run.
    await db.updateTable("blog_notifications").set({ claimed_until: new Date(Date.now() - 1000).toISOString() }).where("id", "=", id).execute();
    await startNotifyWorker(60_000);
    await stopNotifyWorker();
    expect((await queuedTo(id)).sort()).toEqual(["amina@example.org", "brian@example.org"]);
  });

  it("every active subscriber (not unsubscribed ones) receives the post with their own unsubscribe link", async () => {
    await addSubscribers(["amina@example.org", "brian@example.org", "chao@example.org"]);
    await addSubscribers(["gone@example.org"], "unsubscribed");
    const run = await notifyNewBlog(db, "friday-night");
    expect(run.recipients).toBe(3);
    await run.done;
    await drainOutbox();

    expect(smtp.messages.map((m) => m.envelope.to[0]).sort()).toEqual(["amina@example.org", "brian@example.org", "chao@example.org"]);
    for (const { envelope, mail } of smtp.messages) {
      const token = (await db.selectFrom("subscribers").select("token").where("email", "=", envelope.to[0]!).executeTakeFirstOrThrow()).token;
      const unsubscribe = `http://site.test/unsubscribe?token=${encodeURIComponent(token)}`;
      expect(mail.subject).toContain("Title of friday-night");
      expect(mail.text).toContain("http://site.test/blogs/friday-night");
      expect(mail.text).toContain(unsubscribe);
      expect(mail.html).toContain(`href="${unsubscribe}"`);
      expect(headerText(mail, "List-Unsubscribe")).toBe(`<${unsubscribe}>`);
      expect(headerText(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    }
    expect(await notificationStatus(db, run.id)).toEqual({ id: run.id, slug: "friday-night", recipients: 3, queued: 3, sent: 3, failed: 0 });
  });

  it("notificationStatus counts failed messages, and never shows an address", async () => {
    await addSubscribers(["amina@example.org", "brian@example.org"]);
    const run = await notifyNewBlog(db, "friday-night");
    await run.done;
    await drainOutbox();
    await db.updateTable("outbox").set({ status: "failed" }).where("to_address", "=", "brian@example.org").execute();
    const status = await notificationStatus(db, run.id);
    expect(status).toEqual({ id: run.id, slug: "friday-night", recipients: 2, queued: 2, sent: 1, failed: 1 });
    expect(JSON.stringify(status)).not.toContain("@");
  });

  it("with no subscribers it answers 0 and sends nothing", async () => {
    const run = await notifyNewBlog(db, "campus-week");
    expect(run.recipients).toBe(0);
    await run.done;
    await drainOutbox();
    expect(smtp.messages).toEqual([]);
  });

  it("an unknown post is a 404 and records no run", async () => {
    const e = await failure(notifyNewBlog(db, "no-such-post"));
    expect(e.status).toBe(404);
    expect(await db.selectFrom("blog_notifications").selectAll().execute()).toEqual([]);
    expect(await notificationStatus(db, 999)).toBeUndefined();
  });
});
