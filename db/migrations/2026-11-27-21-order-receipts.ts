import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// An order may hold more than the one receipt its typed code names (a top-up, a payment whose
// account number is the order's reference, a payment staff link by hand), and each receipt
// still pays at most one order:
// - order_receipts: a received payment linked to an order other than by the order's typed code
//   (that claim stays in payment_codes). The receipt is the key, so it names one order here;
//   the ledger refuses a receipt that payment_codes gives to another order, and the other way
//   round. matched_by: 'account' (its BillRefNumber / A/C No. is the order's reference) or
//   'staff'; linked_by: the staff address or 'system'.
// - receipt_unlinks: 'this receipt is not this order's', as staff said it (an unlinked
//   payment, or the order's typed code marked wrong), so no rule links the pair again.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("order_receipts")
    .addColumn("trans_id", "text", (c) => c.primaryKey().references("received_payments.code"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.notNull())
    .addColumn("matched_by", "text", (c) => c.notNull())
    .addColumn("linked_by", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("linked_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_receipts_order").on("order_receipts").columns(["order_id"]).execute();

  await db.schema
    .createTable("receipt_unlinks")
    .addColumn("trans_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("unlinked_by", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("unlinked_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("receipt_unlinks_pk", ["trans_id", "order_id"])
    .execute();
  await db.schema.createIndex("receipt_unlinks_order").on("receipt_unlinks").columns(["order_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("receipt_unlinks").ifExists().execute();
  await db.schema.dropTable("order_receipts").ifExists().execute();
}
