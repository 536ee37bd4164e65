import { sql, type Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// Nothing staff or the old site wrote is lost:
// - badge_orders.staff_note and merch_orders.staff_notes become a log: each staff action that
//   writes a note (a rejection, a note to the supporter, a merch review, the old-site import)
//   adds a dated entry; what was there stays.
// - supporter_note (both order kinds): the note that went to the supporter with the latest
//   decision (the rejection's reason, the merch review's note), which the order's own page
//   shows. Filled in from the staff note where it was the supporter's (a rejected badge order,
//   a reviewed merch order), as it was shown before this column existed.
// - legacy_import_runs: each import of the old site, with its report (per file: what was added,
//   every refusal with its line and reason, every value cut with its full text), which staff
//   open at /admin/imports.
// Text and integer columns only, so the same migration runs on PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("badge_orders").addColumn("supporter_note", "text", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.alterTable("merch_orders").addColumn("supporter_note", "text", (c) => c.notNull().defaultTo("")).execute();
  await sql`update badge_orders set supporter_note = staff_note where status = 'rejected'`.execute(db);
  await sql`update merch_orders set supporter_note = staff_notes where status in ('approved', 'rejected')`.execute(db);

  await db.schema
    .createTable("legacy_import_runs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("folder", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("added", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("refused", "integer", (c) => c.notNull().defaultTo(0))
    /** JSON: the run's report, file by file. */
    .addColumn("report", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("legacy_import_runs").ifExists().execute();
  await db.schema.alterTable("merch_orders").dropColumn("supporter_note").execute();
  await db.schema.alterTable("badge_orders").dropColumn("supporter_note").execute();
}
