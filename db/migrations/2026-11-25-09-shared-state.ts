import type { Kysely } from "kysely";
import { isPostgres } from "../../app/lib/db/dialect.server";

// Frozen: never edit after release; add a new migration instead.
//
// What several server processes (or machines) on one PostgreSQL database must share, and a
// single SQLite process keeps in its data folder or in memory:
// - stored_files: order images (portraits, badges, posters) and staff-set share pages, so any
//   process can serve them (app/lib/db/blob-store.server.ts);
// - site_secrets: the session secret and a generated admin key (app/lib/db/secrets.server.ts);
// - visitor_salts: today's salt for the visitor hash, deleted once the day is over;
// - rate_limits: the limits' counters (rate-limiter-flexible's table for PostgreSQL).
// On SQLite this migration creates nothing.
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema
    .createTable("stored_files")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("bytes", "bytea", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("site_secrets")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("visitor_salts")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("salt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "varchar(255)", (c) => c.primaryKey())
    .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expire", "bigint")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["rate_limits", "visitor_salts", "site_secrets", "stored_files"]) await db.schema.dropTable(t).ifExists().execute();
}
