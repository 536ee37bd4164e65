import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// Moving the old site in (`npm run import:legacy`), and what it needs to keep working:
// - legacy_imports: every record the import has taken (or found already here), by file kind and
//   the old site's key (an order id, a slug, an email, a log line's hash), with what it became
//   here. A second import of the same files adds nothing.
// - blog_series: post series (the old site's series.json: seriesId, title, image, summary);
//   blog_posts.series_id / series_order: the series a post belongs to and its place in it.
// - blog_slug_aliases: an old post address (a slug this site cannot use, such as sabbath_rest,
//   or the old tracker's stripped form, sabbathrest) and the post it is now.
// - team_badges.image_file: a picture staff uploaded for the badge (a checked, re-encoded PNG
//   under team-badges/uploads/); null: the badge is drawn. team_badges.retired_at: retired by
//   staff (hidden from /badges; the id stays taken and its record says revoked).
// Text and integer columns only, so the same migration runs on PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("legacy_imports")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("imported_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("legacy_imports_pk", ["kind", "key"])
    .execute();

  await db.schema
    .createTable("blog_series")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("image", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text")
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.alterTable("blog_posts").addColumn("series_id", "text").execute();
  await db.schema.alterTable("blog_posts").addColumn("series_order", "integer").execute();
  await db.schema.createIndex("blog_posts_series").on("blog_posts").column("series_id").execute();

  await db.schema
    .createTable("blog_slug_aliases")
    .addColumn("old_slug", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("team_badges").addColumn("image_file", "text").execute();
  await db.schema.alterTable("team_badges").addColumn("retired_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ["retired_at", "image_file"]) await db.schema.alterTable("team_badges").dropColumn(c).execute();
  await db.schema.dropTable("blog_slug_aliases").ifExists().execute();
  await db.schema.dropIndex("blog_posts_series").ifExists().execute();
  for (const c of ["series_order", "series_id"]) await db.schema.alterTable("blog_posts").dropColumn(c).execute();
  await db.schema.dropTable("blog_series").ifExists().execute();
  await db.schema.dropTable("legacy_imports").ifExists().execute();
}
