import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// Door check-in: when an approved supporter was let in (null until then). Set once, by a
// compare-and-set update, so two door phones scanning one ticket at once record one arrival.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("badge_orders").addColumn("checked_in_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("badge_orders").dropColumn("checked_in_at").execute();
}
