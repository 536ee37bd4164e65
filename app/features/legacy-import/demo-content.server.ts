import { sql } from "kysely";
import { nowIso, type Db } from "~/lib/db/db.server";
import { seedPosts } from "../../../db/seed/blog";
import { seedItems } from "../../../db/seed/merch";
import { merchItemRow } from "../merch/merch.server";

/**
 * The seed's posts and store items are a demo, not content: once the old site's real posts (or
 * items) come in, those staff never changed leave, as the demo team badges do, and the seed is
 * marked as run so they never come back. A demo item someone ordered stays (its orders name it).
 * Each returns what it removed (a dry run lists the same, then rolls back).
 */

async function markSeedRun(db: Db, name: string) {
  await db.insertInto("seed_runs").values({ name, ran_at: nowIso() }).onConflict((oc) => oc.column("name").doNothing()).execute();
}

const POST_FIELDS = ["title", "summary", "author", "date", "image", "url", "audio_video_id"] as const;

export async function removeUntouchedSeedPosts(db: Db): Promise<string[]> {
  await markSeedRun(db, "blog-posts");
  const removed: string[] = [];
  for (const seed of seedPosts) {
    const row = await db.selectFrom("blog_posts").selectAll().where("slug", "=", seed.slug).executeTakeFirst();
    if (!row) continue;
    const same =
      POST_FIELDS.every((f) => (row[f] ?? null) === (seed[f] ?? null)) &&
      row.tags === JSON.stringify(seed.tags) &&
      // Saved through the editor, the body comes back sanitised: the same text then, or none.
      (row.content_html ?? null) === (seed.content_html ?? null) &&
      !row.series_id;
    if (!same) continue;
    await db.deleteFrom("blog_posts").where("slug", "=", seed.slug).execute();
    removed.push(seed.slug);
  }
  return removed;
}

export async function removeUntouchedSeedItems(db: Db): Promise<string[]> {
  await markSeedRun(db, "merch-catalogue");
  const removed: string[] = [];
  for (const [i, seed] of seedItems.entries()) {
    const row = await db.selectFrom("merch_items").selectAll().where("id", "=", seed.id).executeTakeFirst();
    if (!row) continue;
    const { sort: _sort, ...want } = merchItemRow({ ...seed, currency: "KES", available: seed.available !== false }, i);
    if (Object.entries(want).some(([k, v]) => row[k as keyof typeof row] !== v)) continue;
    const ordered = await db
      .selectFrom("merch_orders")
      .select("id")
      .where(sql<boolean>`items like ${`%"itemId":${JSON.stringify(seed.id)}%`}`)
      .executeTakeFirst();
    if (ordered) continue;
    await db.deleteFrom("merch_items").where("id", "=", seed.id).execute();
    removed.push(seed.slug);
  }
  return removed;
}
