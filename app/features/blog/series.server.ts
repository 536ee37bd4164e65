import { logAction } from "~/features/activity/activity.server";
import type { Actor } from "~/lib/core/actor";
import { nowIso, type Db } from "~/lib/db/db.server";
import { clearPageCache } from "~/lib/http/page-cache.server";
import type { BlogPost } from "./blog";
import { listPostCards } from "./blog.server";
import type { BlogSeriesTable } from "./blog.tables";
import type { BlogSeries, PostSeriesView } from "./series";
import type { SeriesInput } from "./series.schema";

/** A series in the old shape: summary and createdAt only when there are any. */
export function toLegacySeries(s: Pick<BlogSeriesTable, "id" | "title" | "image" | "summary" | "created_at">): BlogSeries {
  return {
    seriesId: s.id,
    title: s.title,
    image: s.image,
    ...(s.summary ? { summary: s.summary } : {}),
    ...(s.created_at ? { createdAt: s.created_at } : {}),
  };
}

/** Every series, in the order staff saved them (GET /api/series.php, /data/series.json). */
export async function listSeries(db: Db): Promise<BlogSeries[]> {
  const rows = await db.selectFrom("blog_series").selectAll().orderBy("sort").orderBy("id").execute();
  return rows.map(toLegacySeries);
}

/**
 * Replaces the list of series (the old blog admin saves it whole, before the posts). Posts keep
 * their series ids; a post whose series is gone simply shows none.
 */
export async function saveSeriesList(db: Db, items: SeriesInput[], actor: Actor) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("blog_series").execute();
    for (const [i, s] of items.entries()) {
      await trx
        .insertInto("blog_series")
        .values({ id: s.seriesId, title: s.title, summary: s.summary, image: s.image, created_at: s.createdAt ?? null, sort: i, updated_at: nowIso() })
        .execute();
    }
  });
  clearPageCache("/blogs");
  await logAction(db, actor, { type: "series.save", message: `Series saved (${items.length})`, meta: { count: items.length } });
  return listSeries(db);
}

/** Posts of a series in reading order: their place in it when given, else oldest first. */
function readingOrder(posts: (BlogPost & { order: number | null })[]) {
  return [...posts].sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || a.date.localeCompare(b.date));
}

async function seriesPosts(db: Db, id: string) {
  const [cards, places] = await Promise.all([
    listPostCards(db),
    db.selectFrom("blog_posts").select(["slug", "series_order"]).where("series_id", "=", id).execute(),
  ]);
  const order = new Map(places.map((p) => [p.slug, p.series_order]));
  return readingOrder(cards.filter((p) => order.has(p.slug)).map((p) => ({ ...p, order: order.get(p.slug) ?? null })));
}

/** /blogs/series/{id}: the series and its posts in reading order; null when there is no such series. */
export async function getSeriesPage(db: Db, id: string): Promise<{ series: BlogSeries; posts: BlogPost[] } | null> {
  const row = await db.selectFrom("blog_series").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const posts = await seriesPosts(db, row.id);
  return { series: toLegacySeries(row), posts: posts.map(({ order: _order, ...post }) => post) };
}

/** What a post's page says of its series ('Part 2 of 3 in Christ In The Streets'), or null. */
export async function seriesOfPost(db: Db, post: Pick<BlogPost, "slug" | "seriesId">): Promise<PostSeriesView | null> {
  if (!post.seriesId) return null;
  const row = await db.selectFrom("blog_series").select(["id", "title"]).where("id", "=", post.seriesId).executeTakeFirst();
  if (!row) return null;
  const posts = await seriesPosts(db, row.id);
  const at = posts.findIndex((p) => p.slug === post.slug);
  return { seriesId: row.id, title: row.title, part: at + 1, of: posts.length };
}
