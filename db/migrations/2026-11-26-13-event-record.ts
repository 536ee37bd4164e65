import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// The evening the badges are for, as one staff-editable record (it was fixed in code): its
// name, date and time, venue, the day sales opened, the raise target and each tier's target.
// One row (id 1), holding what the code said until now, so nothing changes on upgrade.
// badge_orders.reminder_for: the event date a supporter's day-before reminder was queued for,
// set in the same transaction as the message, so it is queued once however often the
// reminder run repeats or the server restarts (and again only for a new date).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("event_record")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("date", "text", (c) => c.notNull())
    .addColumn("start_time", "text")
    .addColumn("venue", "text", (c) => c.notNull())
    .addColumn("sales_open", "text")
    .addColumn("raise_target", "integer", (c) => c.notNull())
    .addColumn("tier_goals", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db
    .insertInto("event_record")
    .values({
      id: 1,
      title: "Street Vespers Fundraising Concert",
      date: "2025-11-23",
      start_time: null,
      venue: "Nairobi",
      sales_open: null,
      raise_target: 468_500,
      tier_goals: JSON.stringify({ t1: 34, t2: 21, t3: 13, t4: 8, t5: 5 }),
      updated_at: new Date().toISOString(),
    })
    .execute();
  await db.schema.alterTable("badge_orders").addColumn("reminder_for", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("badge_orders").dropColumn("reminder_for").execute();
  await db.schema.dropTable("event_record").execute();
}
