import type { Kysely } from "kysely";

import { idColumn } from "../../app/lib/db/dialect.server";

// Frozen: never edit after release; add a new migration instead.
//
// M-Pesa confirmations are told once, so none that names a TransID is thrown away:
// - received_payments.odd_parts: the fields of a confirmation that were stored on doubt (a
//   fractional amount, an unusual TransID, a value that is not text), as a JSON list of
//   {field, value, note} exactly as they came; '' when nothing was odd. Staff see them.
// - callbacks_set_aside: confirmations that are not payments into this site's numbers (another
//   short code, or none) or whose TransID, amount or time cannot be read. Kept with their body
//   as it came, once per TransID, for staff; they never match an order by themselves.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("received_payments").addColumn("odd_parts", "text", (c) => c.notNull().defaultTo("")).execute();

  await db.schema
    .createTable("callbacks_set_aside")
    .addColumn("id", ...idColumn(db))
    .addColumn("trans_id", "text", (c) => c.notNull().unique())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("shortcode", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("amount", "integer")
    .addColumn("paid_at", "text")
    .addColumn("payer_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("payer_phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("account_ref", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("callbacks_set_aside_received_at").on("callbacks_set_aside").column("received_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("callbacks_set_aside").ifExists().execute();
  await db.schema.alterTable("received_payments").dropColumn("odd_parts").execute();
}
