import type { Kysely } from "kysely";

import { idColumn } from "../../app/lib/db/dialect.server";

// Frozen: never edit after release; add a new migration instead.
//
// stk_pushes: each M-Pesa Express prompt the site asked Safaricom to show on a supporter's
// phone for an order (kind 'badge' | 'merch', order_id). A row is written before Daraja is
// asked (so the per-order and per-phone limits count it), then given Daraja's
// checkout_request_id; state: 'sent' (waiting), 'paid', 'cancelled', 'timeout', 'failed'.
// result_code / result_desc as M-Pesa said them; receipt: the MpesaReceiptNumber when a callback
// named it. query_due_at / query_claimed_until / query_attempts: the stkpushquery schedule for a
// push whose callback did not come (a lease any process may take, so one asks at a time).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("stk_pushes")
    .addColumn("id", ...idColumn(db))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("client_ip", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("checkout_request_id", "text")
    .addColumn("merchant_request_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("result_code", "text")
    .addColumn("result_desc", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("receipt", "text")
    .addColumn("sent_at", "text", (c) => c.notNull())
    .addColumn("settled_at", "text")
    .addColumn("query_due_at", "text")
    .addColumn("query_claimed_until", "text")
    .addColumn("query_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("stk_pushes_checkout").on("stk_pushes").column("checkout_request_id").unique().execute();
  await db.schema.createIndex("stk_pushes_order").on("stk_pushes").columns(["order_id", "sent_at"]).execute();
  await db.schema.createIndex("stk_pushes_phone").on("stk_pushes").columns(["phone", "sent_at"]).execute();
  await db.schema.createIndex("stk_pushes_due").on("stk_pushes").columns(["state", "query_due_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("stk_pushes").ifExists().execute();
}
