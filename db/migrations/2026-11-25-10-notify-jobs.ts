import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// A blog notify run is a job any server process can claim and finish: how far it has queued
// (after_subscriber_id, moved in the same transaction as each batch of mail), a lease while a
// process works on it (claimed_until), and when it was done. Runs from before this migration
// count as done (they ran in memory to the end, or were lost with their process).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("blog_notifications").addColumn("after_subscriber_id", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("blog_notifications").addColumn("claimed_until", "text").execute();
  await db.schema.alterTable("blog_notifications").addColumn("done_at", "text").execute();
  await db.updateTable("blog_notifications").set((eb) => ({ done_at: eb.ref("created_at") })).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ["done_at", "claimed_until", "after_subscriber_id"]) await db.schema.alterTable("blog_notifications").dropColumn(c).execute();
}
