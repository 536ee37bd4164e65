import type { Kysely } from "kysely";

import { idColumn } from "../../app/lib/db/dialect.server";

// Frozen: never edit after release; add a new migration instead.
//
// stk_callbacks_held: M-Pesa Express result callbacks whose CheckoutRequestID no prompt row
// held when they came (the push's own answer was slow, never kept, or the id is not the site's).
// Kept whole (the receipt of a paid one also goes to received_payments), then given to the
// prompt once its id is known (push_id), or matched to a prompt by phone and amount.
// stk_pushes.state gains 'unknown' (a push whose answer did not come: money may have been taken).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("stk_callbacks_held")
    .addColumn("id", ...idColumn(db))
    .addColumn("checkout_request_id", "text", (c) => c.notNull())
    .addColumn("merchant_request_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("result_code", "text", (c) => c.notNull())
    .addColumn("result_desc", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("receipt", "text")
    .addColumn("amount", "integer")
    .addColumn("phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("paid_at", "text")
    .addColumn("body", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("received_at", "text", (c) => c.notNull())
    .addColumn("push_id", "integer")
    .execute();
  await db.schema.createIndex("stk_callbacks_held_checkout").on("stk_callbacks_held").column("checkout_request_id").unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("stk_callbacks_held").ifExists().execute();
}
