import { sql, type Kysely } from "kysely";

import { idColumn } from "../../app/lib/db/dialect.server";

// Frozen: never edit after release; add a new migration instead. (Its SQLite statements are as
// released; app/lib/db/dialect.server.ts gives PostgreSQL its equivalents.)
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("subscribers")
    .addColumn("id", ...idColumn(db))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("unsubscribed_at", "text")
    .execute();

  await db.schema
    .createTable("applications")
    .addColumn("id", ...idColumn(db))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("outbox")
    .addColumn("id", ...idColumn(db))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("reply_to", "text")
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text")
    .addColumn("headers", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("attachments", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("message_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema
    .createIndex("outbox_due")
    .on("outbox")
    .columns(["status", "next_attempt_at"])
    .execute();

  await db.schema
    .createTable("activity")
    .addColumn("id", ...idColumn(db))
    .addColumn("ts", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("meta", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("actor_ip", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.createIndex("activity_type_id").on("activity").columns(["type", "id"]).execute();

  // One table for every tracked thing: page views, named events and blog views.
  await db.schema
    .createTable("analytics_events")
    .addColumn("id", ...idColumn(db))
    .addColumn("ts", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("ref", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("src", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("meta", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("cid", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .createIndex("analytics_type_ts")
    .on("analytics_events")
    .columns(["type", "ts"])
    .execute();
  await sql`select 1`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["analytics_events", "activity", "outbox", "applications", "subscribers"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
