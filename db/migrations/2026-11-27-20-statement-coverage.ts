import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// What a statement covers, and payments M-Pesa took back:
// - mpesa_imports.shortcode: the number the statement's 'Short Code' title line names ('' when
//   it names none). period_source: where covers_from/covers_to came from: 'time_period' (its
//   'Time Period' title line), 'from_to' (From and To lines), 'none' (it states no period), or
//   'payment_rows' for imports made before this migration, whose coverage was taken from their
//   first and last payment rows. Only a stated period of one of the site's numbers lets a
//   missing code become 'no such payment'; older imports keep their numbers for the record.
// - payment_reversals: every reversal row read from a statement (Reason Type 'Reversal'),
//   keyed by the reversal's own receipt, naming the payment it took back (original_code), kept
//   even while that payment is not yet known.
// - received_payments.reversed_at / reversed_by: when M-Pesa took the payment back, and the
//   reversal's receipt; set when both the payment and its reversal are known.
// - mpesa_statement_drafts.xlsx_base64: an uploaded .xlsx statement awaiting its import ('' for
//   a CSV, which stays in `csv`).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("mpesa_imports").addColumn("shortcode", "text", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.alterTable("mpesa_imports").addColumn("period_source", "text", (c) => c.notNull().defaultTo("payment_rows")).execute();

  await db.schema
    .createTable("payment_reversals")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("original_code", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("reversed_at", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payment_reversals_original").on("payment_reversals").column("original_code").execute();

  await db.schema.alterTable("received_payments").addColumn("reversed_at", "text").execute();
  await db.schema.alterTable("received_payments").addColumn("reversed_by", "text").execute();

  await db.schema.alterTable("mpesa_statement_drafts").addColumn("xlsx_base64", "text", (c) => c.notNull().defaultTo("")).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("mpesa_statement_drafts").dropColumn("xlsx_base64").execute();
  await db.schema.alterTable("received_payments").dropColumn("reversed_by").execute();
  await db.schema.alterTable("received_payments").dropColumn("reversed_at").execute();
  await db.schema.dropTable("payment_reversals").ifExists().execute();
  await db.schema.alterTable("mpesa_imports").dropColumn("period_source").execute();
  await db.schema.alterTable("mpesa_imports").dropColumn("shortcode").execute();
}
