import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
export async function up(db: Kysely<any>): Promise<void> {
  // One ledger of payment codes for every kind of order: a code pays for one order only.
  await db.schema
    .createTable("payment_codes")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("badge_orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tier_key", "text", (c) => c.notNull())
    .addColumn("tier_name", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("payment_reference", "text", (c) => c.notNull().unique())
    .addColumn("hard_copy", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("share_url", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("approved_at", "text")
    .addColumn("rejected_at", "text")
    .addColumn("portrait_file", "text")
    .addColumn("badge_file", "text")
    .addColumn("poster_file", "text")
    .addColumn("asset_token", "text", (c) => c.notNull())
    .addColumn("delivery_outbox_id", "integer")
    .execute();
  await db.schema.createIndex("badge_orders_status").on("badge_orders").columns(["status", "created_at"]).execute();

  await db.schema
    .createTable("team_badges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("subtitle", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("progress", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("earned", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("owner_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("issued_at", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("icon", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("colour", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("image_src", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["team_badges", "badge_orders", "payment_codes"]) await db.schema.dropTable(t).ifExists().execute();
}
