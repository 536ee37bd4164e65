import crypto from "node:crypto";
import type { Kysely } from "kysely";

import { idColumn } from "../../app/lib/db/dialect.server";

// Frozen: never edit after release; add a new migration instead. (Its SQLite statements are as
// released; app/lib/db/dialect.server.ts gives PostgreSQL its equivalents.)
//
// M-Pesa's own records beside the codes supporters type:
// - received_payments: one row per M-Pesa transaction paid into the paybill, from a Daraja C2B
//   confirmation callback or an imported business-portal statement. The code (TransID /
//   Receipt No.) is the key, so the same payment arriving twice is stored once; `raw` keeps the
//   fields as they came, for audit. Amounts are whole shillings; times ISO-8601 UTC text.
// - mpesa_imports: each confirmed statement import, with the period its payments cover (what
//   lets 'no such payment' become 'likely fake').
// - mpesa_statement_drafts: a statement staff uploaded and are looking at the preview of; the
//   confirm step imports it by id (a file input cannot be sent twice without JavaScript).
// - merch_orders.view_token: the secret in the link to a merch order's private page (badge
//   orders have asset_token already); existing orders get one here.
// Text and integer columns only, so the same migration runs on PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("received_payments")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("paid_at", "text", (c) => c.notNull())
    .addColumn("payer_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("payer_phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("account_ref", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("shortcode", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("raw", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("received_payments_paid_at").on("received_payments").column("paid_at").execute();

  await db.schema
    .createTable("mpesa_imports")
    .addColumn("id", ...idColumn(db))
    .addColumn("imported_at", "text", (c) => c.notNull())
    .addColumn("actor_ip", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("rows", "integer", (c) => c.notNull())
    .addColumn("added", "integer", (c) => c.notNull())
    .addColumn("known", "integer", (c) => c.notNull())
    .addColumn("skipped", "integer", (c) => c.notNull())
    .addColumn("covers_from", "text")
    .addColumn("covers_to", "text")
    .execute();

  await db.schema
    .createTable("mpesa_statement_drafts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("csv", "text", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("merch_orders").addColumn("view_token", "text", (c) => c.notNull().defaultTo("")).execute();
  const orders = await db.selectFrom("merch_orders").select("id").execute();
  for (const o of orders) {
    await db
      .updateTable("merch_orders")
      .set({ view_token: crypto.randomBytes(24).toString("base64url") })
      .where("id", "=", o.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("merch_orders").dropColumn("view_token").execute();
  await db.schema.dropTable("mpesa_statement_drafts").ifExists().execute();
  await db.schema.dropTable("mpesa_imports").ifExists().execute();
  await db.schema.dropTable("received_payments").ifExists().execute();
}
