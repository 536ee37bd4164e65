import { sql, type Kysely } from "kysely";

import { compactTable } from "../../app/lib/db/dialect.server";

// Frozen: never edit after release; add a new migration instead. (Its SQLite statements are as
// released; app/lib/db/dialect.server.ts gives PostgreSQL its equivalents.)
//
// Summaries of analytics_events, kept by app/features/analytics/rollup.server.ts so the staff
// dashboards never scan the raw table:
// - analytics_daily: views per UTC day, type and name (blog views split by source). `uniques`
//   (distinct clients that day) is filled in when the day's raw events are rolled up and deleted.
// - analytics_daily_refs: page views per day and referring host (host only).
// - analytics_clients: the last time each client id was seen per type and name, for exact
//   'unique' counts over the raw period. Pruned with the raw events it comes from.
// - analytics_rollup_state: one row; how far the summaries have read and what has been rolled up.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("analytics_daily")
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("site", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("share", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("uniques", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_seen", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("analytics_daily_pk", ["type", "day", "name"])
    .$call(compactTable(db))
    .execute();

  await db.schema
    .createTable("analytics_daily_refs")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("host", "text", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("analytics_daily_refs_pk", ["day", "host"])
    .$call(compactTable(db))
    .execute();

  await db.schema
    .createTable("analytics_clients")
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("cid", "text", (c) => c.notNull())
    .addColumn("last_seen", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("analytics_clients_pk", ["type", "name", "cid"])
    .$call(compactTable(db))
    .execute();
  // 'Distinct clients of this page since T' is one range count per name on this index.
  await db.schema
    .createIndex("analytics_clients_seen")
    .on("analytics_clients")
    .columns(["type", "name", "last_seen"])
    .execute();

  await db.schema
    .createTable("analytics_rollup_state")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    // Every raw event with id <= summarized_id is in analytics_daily/_refs/_clients.
    .addColumn("summarized_id", "integer", (c) => c.notNull().defaultTo(0))
    // Days before this one ('YYYY-MM-DD', '' = none) are rolled up: raw events deleted.
    .addColumn("rolled_before", "text", (c) => c.notNull().defaultTo(""))
    // The day being rolled up: its uniques are stored, its raw events are being deleted.
    .addColumn("rolling_day", "text")
    .execute();
  await db.insertInto("analytics_rollup_state").values({ id: 1 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["analytics_rollup_state", "analytics_clients", "analytics_daily_refs", "analytics_daily"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
