import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// Staff sessions, so signing out ends a session on the server and not only in the browser:
// - staff_sessions: one row per signed-in browser. `id` is a SHA-256 hash (base64url) of the
//   random id in the signed cookie, so a copy of the database holds no usable session.
//   `key_fingerprint` ties the session to the admin key it was opened with (a new key ends
//   every session); `expires_at` is an ISO-8601 UTC time, 12 hours after sign-in, and expired
//   rows are deleted at each sign-in.
// - activity_type_ts: the staff screens count recent wrong admin keys by type and time.
// Text ids and ISO text times only, so the same migration runs on PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("staff_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key_fingerprint", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("actor_ip", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.createIndex("staff_sessions_expires").on("staff_sessions").column("expires_at").execute();

  await db.schema.createIndex("activity_type_ts").on("activity").columns(["type", "ts"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("activity_type_ts").ifExists().execute();
  await db.schema.dropTable("staff_sessions").ifExists().execute();
}
