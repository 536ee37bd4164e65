import { sql } from "kysely";
import type { Db } from "~/lib/db/db.server";
import type { BlogPostsTable } from "./blog.tables";
import { getDb, nowIso } from "~/lib/db/db.server";
import { singleFlight } from "~/lib/core/single-flight";
import { enqueueMail, kickMailWorker } from "~/lib/mail/email.server";
import { DomainError } from "~/lib/core/domain-error";
import { absoluteUrl } from "~/lib/http/http.server";
import { clearPageCache, type CacheScope } from "~/lib/http/page-cache.server";
import { SLUG_PATTERN } from "~/lib/core/rules";
import { unsubscribeUrl } from "../newsletter/newsletter.server";
import {
  DEFAULT_POLL_OPTIONS,
  DEFAULT_POLL_QUESTION,
  emptyCounts,
  feedbackPollId,
  feedbackPollOptions,
  postPollId,
  type BlogPost,
  type Reaction,
  type ReactionCounts,
} from "./blog";
import type { BlogPostInput } from "./blog.schema";
import { newPostEmail } from "./emails/new-post";
import { sanitizePostHtml } from "./sanitize.server";

// ---------------------------------------------------------------- posts

function toPost(r: BlogPostsTable): BlogPost {
  const post: BlogPost = {
    slug: r.slug,
    title: r.title,
    summary: r.summary,
    author: r.author,
    date: r.date,
    tags: JSON.parse(r.tags) as string[],
    image: r.image,
    url: r.url,
  };
  if (r.audio_video_id) post.audioVideoId = r.audio_video_id;
  if (r.series_id) post.seriesId = r.series_id;
  if (r.series_id && r.series_order != null) post.episodeNumber = r.series_order;
  // Sanitised when saved and again when shown: a rule tightened later applies to old posts too.
  if (r.content_html) post.contentHtml = sanitizePostHtml(r.content_html);
  return post;
}

export async function listPosts(db: Db): Promise<BlogPost[]> {
  const rows = await db.selectFrom("blog_posts").selectAll().orderBy("sort").execute();
  return rows.map(toPost);
}

/** Posts without their bodies: for lists, cards and related posts (no HTML to sanitise). */
export async function listPostCards(db: Db): Promise<BlogPost[]> {
  const rows = await db
    .selectFrom("blog_posts")
    .select(["slug", "title", "summary", "author", "date", "tags", "image", "url", "audio_video_id", "sort", "updated_at", "series_id", "series_order"])
    .orderBy("sort")
    .execute();
  return rows.map((r) => toPost({ ...r, content_html: null }));
}

export async function getPost(db: Db, slug: string): Promise<BlogPost | undefined> {
  const row = await db.selectFrom("blog_posts").selectAll().where("slug", "=", slug).executeTakeFirst();
  return row ? toPost(row) : undefined;
}

export async function ensurePollIn(db: Db, id: string, question: string, options: string[]) {
  await db.insertInto("polls").values({ id, question, created_at: nowIso() }).onConflict((oc) => oc.column("id").doNothing()).execute();
  const existing = await db.selectFrom("poll_options").select(["option"]).where("poll_id", "=", id).execute();
  const have = new Set(existing.map((o) => o.option));
  let sort = existing.length;
  for (const option of options) {
    if (have.has(option)) continue;
    have.add(option);
    await db.insertInto("poll_options").values({ poll_id: id, option, sort: sort++ }).execute();
  }
}

/** The polls every post has: its feedback poll (four items rated 1-5) and its question poll. */
export async function ensurePostPolls(db: Db, slug: string) {
  await ensurePollIn(db, feedbackPollId(slug), "How did this post land with you?", feedbackPollOptions());
  await ensurePollIn(db, postPollId(slug), DEFAULT_POLL_QUESTION, DEFAULT_POLL_OPTIONS.split(","));
}

/** A post's row as every save writes it (its HTML sanitised), before its series. */
export const postRow = (p: BlogPostInput, sort: number) => ({
  slug: p.slug,
  title: p.title,
  summary: p.summary,
  author: p.author,
  date: p.date,
  tags: JSON.stringify(p.tags),
  image: p.image,
  url: p.url,
  audio_video_id: p.audioVideoId ?? null,
  content_html: p.contentHtml?.trim() ? sanitizePostHtml(p.contentHtml) : null,
  sort,
  updated_at: nowIso(),
});

/**
 * Replaces the list of posts (staff save it as one list): HTML is sanitised, order kept, and
 * each post's polls are made sure of. Reactions and votes stay with their slugs.
 */
export async function savePosts(db: Db, posts: BlogPostInput[]) {
  await db.transaction().execute(async (trx) => {
    // A post keeps its series when the list says nothing of it (the staff editor has no series field).
    const before = new Map((await trx.selectFrom("blog_posts").select(["slug", "series_id", "series_order"]).execute()).map((r) => [r.slug, r]));
    await trx.deleteFrom("blog_posts").execute();
    for (const [i, p] of posts.entries()) {
      await trx
        .insertInto("blog_posts")
        .values({
          ...postRow(p, i),
          series_id: p.seriesId === undefined ? (before.get(p.slug)?.series_id ?? null) : p.seriesId || null,
          series_order: p.seriesId === undefined || p.seriesId === before.get(p.slug)?.series_id ? (before.get(p.slug)?.series_order ?? null) : null,
        })
        .execute();
      await ensurePostPolls(trx, p.slug);
    }
  });
  return listPosts(db);
}

// ---------------------------------------------------------------- reactions

async function postExists(db: Db, slug: string) {
  return !!(await db.selectFrom("blog_posts").select("slug").where("slug", "=", slug).executeTakeFirst());
}

export async function reactionCounts(db: Db, slug: string): Promise<ReactionCounts> {
  const rows = await db
    .selectFrom("blog_reactions")
    .select(["reaction", db.fn.countAll<number>().as("n")])
    .where("slug", "=", slug)
    .groupBy("reaction")
    .execute();
  const counts = emptyCounts();
  for (const r of rows) if (r.reaction in counts) counts[r.reaction as Reaction] = Number(r.n);
  return counts;
}

/** Which reactions this client has given a post. */
export async function clientReactions(db: Db, slug: string, cid: string | undefined): Promise<Reaction[]> {
  if (!cid) return [];
  const rows = await db.selectFrom("blog_reactions").select("reaction").where("slug", "=", slug).where("cid", "=", cid).execute();
  return rows.map((r) => r.reaction as Reaction);
}

/** Adds the client's reaction, or with `undo` removes it; counts can never go below 0. */
export async function toggleReaction(db: Db, input: { slug: string; reaction: Reaction; undo: boolean; cid: string }) {
  if (!(await postExists(db, input.slug))) throw new DomainError("not_found", "Unknown post.");
  if (input.undo) {
    await db
      .deleteFrom("blog_reactions")
      .where("slug", "=", input.slug)
      .where("reaction", "=", input.reaction)
      .where("cid", "=", input.cid)
      .execute();
  } else {
    await db
      .insertInto("blog_reactions")
      .values({ slug: input.slug, reaction: input.reaction, cid: input.cid, created_at: nowIso() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  // Only the post's own page shows its counts (the list and other posts show none): the next
  // visitor of this post sees this one, and every other blog page stays cached.
  clearPageCache(`/blogs/${input.slug}`);
  return reactionCounts(db, input.slug);
}

/** Staff view: counts for every post that has any. */
export async function allReactionCounts(db: Db): Promise<Record<string, ReactionCounts>> {
  const rows = await db
    .selectFrom("blog_reactions")
    .select(["slug", "reaction", db.fn.countAll<number>().as("n")])
    .groupBy(["slug", "reaction"])
    .execute();
  const out: Record<string, ReactionCounts> = {};
  for (const r of rows) {
    out[r.slug] ??= emptyCounts();
    if (r.reaction in out[r.slug]!) out[r.slug]![r.reaction as Reaction] = Number(r.n);
  }
  return out;
}

// ---------------------------------------------------------------- polls

export async function pollCounts(db: Db, id: string): Promise<Record<string, number> | undefined> {
  const poll = await db.selectFrom("polls").select("id").where("id", "=", id).executeTakeFirst();
  if (!poll) return undefined;
  const rows = await db
    .selectFrom("poll_options as o")
    .leftJoin("poll_votes as v", (j) => j.onRef("v.poll_id", "=", "o.poll_id").onRef("v.option", "=", "o.option"))
    .select(["o.option", sql<number>`count(v.cid)`.as("n")])
    .where("o.poll_id", "=", id)
    .groupBy(["o.option", "o.sort"])
    .orderBy("o.sort")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.option, Number(r.n)]));
}

/** The options this client has voted for. */
export async function clientVotes(db: Db, id: string, cid: string | undefined): Promise<string[]> {
  if (!cid) return [];
  const rows = await db.selectFrom("poll_votes").select("option").where("poll_id", "=", id).where("cid", "=", cid).execute();
  return rows.map((r) => r.option);
}

/**
 * A public vote: only for polls and options the site defined (nobody outside can create
 * either). One answer per client per poll (choosing another moves the vote); a rating
 * ("Prayed:4") replaces the client's earlier rating of the same item.
 */
export async function vote(db: Db, input: { id: string; option: string; cid: string }) {
  const option = await db
    .selectFrom("poll_options")
    .select("option")
    .where("poll_id", "=", input.id)
    .where("option", "=", input.option)
    .executeTakeFirst();
  if (!option) {
    const poll = await db.selectFrom("polls").select("id").where("id", "=", input.id).executeTakeFirst();
    throw poll ? new DomainError("invalid", "Unknown option.") : new DomainError("not_found", "Unknown poll.");
  }
  await db.transaction().execute(async (trx) => {
    // What this client's vote replaces: a rating ("Prayed:4") replaces their earlier rating of
    // the same item; an answer replaces their other answers (a question has one answer: a
    // visitor cannot vote both Yes and No). Chosen here, not in SQL, so every database agrees.
    const mine = await trx.selectFrom("poll_votes").select("option").where("poll_id", "=", input.id).where("cid", "=", input.cid).execute();
    const itemOf = (option: string) => /^(.*):[1-5]$/.exec(option)?.[1];
    const item = itemOf(input.option);
    const replaced = mine
      .map((v) => v.option)
      .filter((o) => o !== input.option && (item === undefined ? itemOf(o) === undefined : itemOf(o) === item));
    if (replaced.length > 0) {
      await trx.deleteFrom("poll_votes").where("poll_id", "=", input.id).where("cid", "=", input.cid).where("option", "in", replaced).execute();
    }
    await trx
      .insertInto("poll_votes")
      .values({ poll_id: input.id, option: input.option, cid: input.cid, created_at: nowIso() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  });
  clearPageCache(pageOfPoll(input.id));
  return (await pollCounts(db, input.id))!;
}

/** The cached pages a poll's counts are shown on: its post's for a post's own polls, else every blog page. */
function pageOfPoll(id: string): CacheScope {
  const slug = /^blog-(.+)-(?:poll|feedback)$/.exec(id)?.[1];
  return slug && SLUG_PATTERN.test(slug) ? `/blogs/${slug}` : "/blogs";
}

/** Staff create or ensure a poll: options comma-split, the first (or 'A') sent as the seed. */
export async function ensurePoll(db: Db, input: { id: string; question: string; initialOptions?: string | string[]; option?: string }) {
  const listed = Array.isArray(input.initialOptions) ? input.initialOptions : (input.initialOptions ?? "").split(",");
  const options = [...listed.map((o) => o.trim()).filter(Boolean), ...(input.option?.trim() ? [input.option.trim()] : [])];
  if (options.length === 0) options.push("A");
  await db.transaction().execute((trx) => ensurePollIn(trx, input.id, input.question || DEFAULT_POLL_QUESTION, options));
  clearPageCache("/blogs");
  return pollCounts(db, input.id);
}

export async function allPolls(db: Db) {
  const polls = await db.selectFrom("polls").select(["id", "question"]).orderBy("created_at").execute();
  const out: { id: string; question: string; options: Record<string, number> }[] = [];
  for (const p of polls) out.push({ ...p, options: (await pollCounts(db, p.id)) ?? {} });
  return out;
}

// ---------------------------------------------------------------- notify subscribers

const NOTIFY_BATCH = 200;

/** How long a process may go without progress on a run before another takes it over. */
const NOTIFY_LEASE_MS = 2 * 60_000;

/**
 * Tells every active subscriber about a post. The answer comes at once with the number of
 * recipients; the run is a row any server process can claim (this one starts at once), and its
 * messages are queued a batch per transaction, the run's progress moved in the same
 * transaction, so a run cut off by a crash is finished by the next pass, here or in another
 * process, with no subscriber queued twice. `done` settles when this process's pass ends.
 */
export async function notifyNewBlog(db: Db, slug: string) {
  const post = await getPost(db, slug);
  if (!post) throw new DomainError("not_found", "Unknown post.");
  const { n } = await db
    .selectFrom("subscribers")
    .select(db.fn.countAll<number>().as("n"))
    .where("status", "=", "active")
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto("blog_notifications")
    .values({ slug, recipients: Number(n), queued: 0, created_at: nowIso() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, recipients: Number(n), done: notifyWorker.kick() };
}

const notifyWorker = singleFlight("blog notify", async () => {
  const db = await getDb();
  for (let run = await claimNotifyRun(db); run; run = await claimNotifyRun(db)) await finishNotifyRun(db, run);
});

/** Runs unfinished notify runs (after a crash, or another process's) now and every `pollMs`. */
export function startNotifyWorker(pollMs = 60_000) {
  notifyTimer ??= setInterval(() => void notifyWorker.kick(), pollMs);
  notifyTimer.unref();
  return notifyWorker.kick();
}

export async function stopNotifyWorker() {
  if (notifyTimer) clearInterval(notifyTimer);
  notifyTimer = undefined;
  await notifyWorker.idle();
}

let notifyTimer: NodeJS.Timeout | undefined;

type ClaimedRun = { id: number; slug: string; lease: string };

/** Takes the oldest unfinished run nobody holds (or whose holder stopped renewing its lease). */
async function claimNotifyRun(db: Db): Promise<ClaimedRun | undefined> {
  for (;;) {
    const now = nowIso();
    const open = await db
      .selectFrom("blog_notifications")
      .select(["id", "slug", "claimed_until"])
      .where("done_at", "is", null)
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
      .orderBy("id")
      .limit(1)
      .executeTakeFirst();
    if (!open) return undefined;
    const lease = new Date(Date.now() + NOTIFY_LEASE_MS).toISOString();
    const taken = await db
      .updateTable("blog_notifications")
      .set({ claimed_until: lease })
      .where("id", "=", open.id)
      .where((eb) => (open.claimed_until === null ? eb("claimed_until", "is", null) : eb("claimed_until", "=", open.claimed_until)))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { id: open.id, slug: open.slug, lease };
  }
}

async function finishNotifyRun(db: Db, run: ClaimedRun) {
  const post = await getPost(db, run.slug);
  let lease = run.lease;
  for (;;) {
    const next = new Date(Date.now() + NOTIFY_LEASE_MS).toISOString();
    const more = await db.transaction().execute(async (trx) => {
      // Still ours? Moving the lease on is the check: a run taken over is left to its new holder.
      const state = await trx
        .updateTable("blog_notifications")
        .set({ claimed_until: next })
        .where("id", "=", run.id)
        .where("claimed_until", "=", lease)
        .where("done_at", "is", null)
        .returning("after_subscriber_id")
        .executeTakeFirst();
      if (!state) return false;
      const batch = post
        ? await trx
            .selectFrom("subscribers")
            .select(["id", "email", "token"])
            .where("status", "=", "active")
            .where("id", ">", state.after_subscriber_id)
            .orderBy("id")
            .limit(NOTIFY_BATCH)
            .execute()
        : [];
      if (batch.length === 0) {
        // Everyone is queued (or the post was removed meanwhile): the run is done.
        await trx.updateTable("blog_notifications").set({ done_at: nowIso(), claimed_until: null }).where("id", "=", run.id).execute();
        return false;
      }
      const postUrl = absoluteUrl(`/blogs/${post!.slug}`);
      for (const s of batch) {
        const link = unsubscribeUrl(s.token);
        await enqueueMail(trx, {
          kind: `blog.notify.${run.id}`,
          to: s.email,
          ...newPostEmail(post!, postUrl, link),
          headers: { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
        });
      }
      await trx
        .updateTable("blog_notifications")
        .set((eb) => ({ queued: eb("queued", "+", batch.length), after_subscriber_id: batch[batch.length - 1]!.id }))
        .where("id", "=", run.id)
        .execute();
      return true;
    });
    if (!more) return;
    lease = next;
    void kickMailWorker();
    await new Promise((r) => setImmediate(r));
  }
}

/** Counts for a notification run: recipients, queued, sent, failed (never addresses). */
export async function notificationStatus(db: Db, id: number) {
  const n = await db.selectFrom("blog_notifications").selectAll().where("id", "=", id).executeTakeFirst();
  if (!n) return undefined;
  const rows = await db
    .selectFrom("outbox")
    .select(["status", db.fn.countAll<number>().as("c")])
    .where("kind", "=", `blog.notify.${id}`)
    .groupBy("status")
    .execute();
  const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.c)]));
  return { id, slug: n.slug, recipients: n.recipients, queued: n.queued, sent: by.sent ?? 0, ...(by.written ? { written: by.written } : {}), failed: by.failed ?? 0 };
}
