import { sql } from "kysely";
import { nowIso, type Db } from "~/lib/db/db.server";
import { DEFAULT_POLL_QUESTION } from "./blog";
import type { BlogPostInput } from "./blog.schema";
import { ensurePollIn, ensurePostPolls, postRow } from "./blog.server";
import type { SeriesInput } from "./series.schema";

/**
 * The blog's part of moving the old site in (app/features/legacy-import): posts, series,
 * reactions and polls written as this site writes them (HTML sanitised as on save, a post's
 * polls made sure of), added after what is already here and never over it.
 */

export type Added = "added" | "exists";

/** A series from the old series.json, after those already here. */
export async function importSeries(db: Db, s: SeriesInput): Promise<Added> {
  const there = await db.selectFrom("blog_series").select("id").where("id", "=", s.seriesId).executeTakeFirst();
  if (there) return "exists";
  const last = await db.selectFrom("blog_series").select((eb) => eb.fn.max("sort").as("sort")).executeTakeFirst();
  await db
    .insertInto("blog_series")
    .values({
      id: s.seriesId,
      title: s.title,
      summary: s.summary,
      image: s.image,
      created_at: s.createdAt ?? null,
      sort: Number(last?.sort ?? -1) + 1,
      updated_at: nowIso(),
    })
    .execute();
  return "added";
}

export async function postExists(db: Db, slug: string) {
  return !!(await db.selectFrom("blog_posts").select("slug").where("slug", "=", slug).executeTakeFirst());
}

/**
 * A post from the old blogs.json, after the posts already here, its HTML sanitised as a staff
 * save sanitises it, its feedback and question polls made sure of.
 */
export async function importPost(db: Db, p: BlogPostInput & { seriesOrder?: number | null }): Promise<Added> {
  if (await postExists(db, p.slug)) return "exists";
  const last = await db.selectFrom("blog_posts").select((eb) => eb.fn.max("sort").as("sort")).executeTakeFirst();
  await db
    .insertInto("blog_posts")
    .values({
      ...postRow(p, Number(last?.sort ?? -1) + 1),
      series_id: p.seriesId || null,
      series_order: p.seriesOrder ?? null,
    })
    .execute();
  await ensurePostPolls(db, p.slug);
  return "added";
}

/** The slugs of every post here. */
export async function postSlugs(db: Db): Promise<Set<string>> {
  return new Set((await db.selectFrom("blog_posts").select("slug").execute()).map((r) => r.slug));
}

/** Reactions as this site keeps them: one row per client, post and reaction. Returns rows added. */
export async function importReactions(db: Db, rows: { slug: string; reaction: string; cid: string; at: string }[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < rows.length; i += 200) {
    const batch = rows.slice(i, i + 200).map((r) => ({ slug: r.slug, reaction: r.reaction, cid: r.cid, created_at: r.at }));
    const done = await db.insertInto("blog_reactions").values(batch).onConflict((oc) => oc.doNothing()).executeTakeFirst();
    added += Number(done.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

/** How many reactions of each kind a post has here, by 'slug|reaction'. */
export async function reactionTotals(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom("blog_reactions").select(["slug", "reaction", db.fn.countAll<number>().as("n")]).groupBy(["slug", "reaction"]).execute();
  return new Map(rows.map((r) => [`${r.slug}|${r.reaction}`, Number(r.n)]));
}

/** A poll of the old site: its question and options, added to what this site has. */
export async function importPoll(db: Db, id: string, question: string, options: string[]) {
  const there = await db.selectFrom("polls").select("id").where("id", "=", id).executeTakeFirst();
  await ensurePollIn(db, id, question, options);
  return there ? ("exists" as const) : ("added" as const);
}

export async function pollExists(db: Db, id: string) {
  return !!(await db.selectFrom("polls").select("id").where("id", "=", id).executeTakeFirst());
}

/**
 * Votes as this site keeps them: one answer per client per poll question (a rating, 'Prayed:4',
 * one per rated item). Each vote replaces the client's earlier answer to the same question, as
 * a live vote does; the votes come in the order they were cast. Returns votes added.
 */
export async function importVotes(db: Db, votes: { pollId: string; option: string; cid: string; at: string }[]): Promise<number> {
  const itemOf = (option: string) => /^(.*):[1-5]$/.exec(option)?.[1];
  let added = 0;
  for (const v of votes) {
    await ensurePollIn(db, v.pollId, DEFAULT_POLL_QUESTION, [v.option]);
    const item = itemOf(v.option);
    const mine = await db.selectFrom("poll_votes").select("option").where("poll_id", "=", v.pollId).where("cid", "=", v.cid).execute();
    const replaced = mine.map((m) => m.option).filter((o) => o !== v.option && (item === undefined ? itemOf(o) === undefined : itemOf(o) === item));
    if (replaced.length > 0) await db.deleteFrom("poll_votes").where("poll_id", "=", v.pollId).where("cid", "=", v.cid).where("option", "in", replaced).execute();
    const done = await db
      .insertInto("poll_votes")
      .values({ poll_id: v.pollId, option: v.option, cid: v.cid, created_at: v.at })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    added += Number(done.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

/** How many votes each option has here, by 'pollId|option'. */
export async function voteTotals(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom("poll_votes").select(["poll_id", "option", sql<number>`count(*)`.as("n")]).groupBy(["poll_id", "option"]).execute();
  return new Map(rows.map((r) => [`${r.poll_id}|${r.option}`, Number(r.n)]));
}
