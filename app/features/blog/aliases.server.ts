import type { Db } from "~/lib/db/db.server";

/**
 * Old addresses of posts: a slug this site cannot use (sabbath_rest) or the old tracker's
 * stripped form of it (sabbathrest), and the post it is now. Only aliases whose post still
 * exists are followed.
 */
export async function findPostAlias(db: Db, oldSlug: string): Promise<string | null> {
  if (!oldSlug || oldSlug.length > 200) return null;
  const row = await db
    .selectFrom("blog_slug_aliases as a")
    .innerJoin("blog_posts as p", "p.slug", "a.slug")
    .select("a.slug")
    .where("a.old_slug", "=", oldSlug)
    .executeTakeFirst();
  return row?.slug ?? null;
}

/** Records that `oldSlug` now means the post `slug` (an alias never takes a live post's slug). */
export async function addPostAlias(db: Db, oldSlug: string, slug: string) {
  if (!oldSlug || oldSlug === slug) return;
  const live = await db.selectFrom("blog_posts").select("slug").where("slug", "=", oldSlug).executeTakeFirst();
  if (live) return;
  await db
    .insertInto("blog_slug_aliases")
    .values({ old_slug: oldSlug, slug })
    .onConflict((oc) => oc.column("old_slug").doUpdateSet({ slug }))
    .execute();
}

/** Every alias, old slug to post. */
export async function allPostAliases(db: Db): Promise<Map<string, string>> {
  const rows = await db.selectFrom("blog_slug_aliases").select(["old_slug", "slug"]).execute();
  return new Map(rows.map((r) => [r.old_slug, r.slug]));
}

/**
 * The slug a reaction or vote from an old client means: the post's own, or the post an old
 * address moved to (sabbath_rest -> sabbath-rest); as given when neither.
 */
export async function currentPostSlug(db: Db, slug: string): Promise<string> {
  if (await db.selectFrom("blog_posts").select("slug").where("slug", "=", slug).executeTakeFirst()) return slug;
  return (await findPostAlias(db, slug)) ?? (await findPostAlias(db, slug.toLowerCase())) ?? slug;
}

/** A post's poll id (blog-{slug}-feedback, blog-{slug}-poll) under an old slug, as the post's own. */
export async function currentPollId(db: Db, id: string): Promise<string> {
  const m = /^blog-(.+)-(feedback|poll)$/.exec(id);
  if (!m) return id;
  const slug = await currentPostSlug(db, m[1]!);
  return slug === m[1] ? id : `blog-${slug}-${m[2]}`;
}
