import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("merch_items")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("price", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("KES"))
    .addColumn("impact", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("image", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("available", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("colors", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("sizes", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("sort", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  // A visitor's bag, keyed by a random id in a cookie, so it works without JavaScript.
  await db.schema
    .createTable("bags")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("lines", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("merch_orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("customer_name", "text", (c) => c.notNull())
    .addColumn("customer_email", "text", (c) => c.notNull())
    .addColumn("customer_phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("payment_reference", "text", (c) => c.notNull().unique())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("items", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("ts", "text", (c) => c.notNull())
    .addColumn("reviewed_at", "text")
    .addColumn("staff_notes", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.createIndex("merch_orders_ts").on("merch_orders").column("ts").execute();

  // Seeds that have run, so starting content is added once and staff deletions stick.
  await db.schema
    .createTable("seed_runs")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("ran_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["seed_runs", "merch_orders", "bags", "merch_items"]) await db.schema.dropTable(t).ifExists().execute();
}
