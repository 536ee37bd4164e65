import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// A staff note on badge orders (merch orders have had one from the start): the note staff
// write when they reject an order goes into the email that tells the supporter, and stays on
// the order for the next person who reads it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("badge_orders").addColumn("staff_note", "text", (c) => c.notNull().defaultTo("")).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("badge_orders").dropColumn("staff_note").execute();
}
