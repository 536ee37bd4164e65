import { sql, type Kysely } from "kysely";

import { idColumn } from "../../app/lib/db/dialect.server";

// Frozen: never edit after release; add a new migration instead. (Its SQLite statements are as
// released; app/lib/db/dialect.server.ts gives PostgreSQL its equivalents.)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("blog_posts")
    .addColumn("slug", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("author", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("date", "text", (c) => c.notNull())
    .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("image", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("url", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("audio_video_id", "text")
    .addColumn("content_html", "text")
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // One reaction of each kind per client and post: an undo removes only the caller's own.
  await db.schema
    .createTable("blog_reactions")
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("reaction", "text", (c) => c.notNull())
    .addColumn("cid", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("blog_reactions_pk", ["slug", "reaction", "cid"])
    .execute();

  await db.schema
    .createTable("polls")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("question", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("poll_options")
    .addColumn("poll_id", "text", (c) => c.notNull().references("polls.id").onDelete("cascade"))
    .addColumn("option", "text", (c) => c.notNull())
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("poll_options_pk", ["poll_id", "option"])
    .execute();
  // One vote per client per option (ratings: one per client per rated item).
  await db.schema
    .createTable("poll_votes")
    .addColumn("poll_id", "text", (c) => c.notNull())
    .addColumn("option", "text", (c) => c.notNull())
    .addColumn("cid", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("poll_votes_pk", ["poll_id", "option", "cid"])
    .execute();

  // A 'notify subscribers' run: its messages go through the outbox with kind blog.notify.<id>.
  await db.schema
    .createTable("blog_notifications")
    .addColumn("id", ...idColumn(db))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("recipients", "integer", (c) => c.notNull())
    .addColumn("queued", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await sql`select 1`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["blog_notifications", "poll_votes", "poll_options", "polls", "blog_reactions", "blog_posts"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
