import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// M-Pesa's own records beside the codes supporters type:
// - received_payments: one row per M-Pesa transaction paid into the paybill, from a Daraja C2B
//   confirmation callback or an imported business-portal statement. The code (TransID /
//   Receipt No.) is the key, so the same payment arriving twice is stored once; `raw` keeps the
//   fields as they came, for audit. Amounts are whole shillings; times ISO-8601 UTC text.
// - mpesa_imports: each confirmed statement import, with the period its payments cover (what
//   lets 'no such payment' become 'likely fake').
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
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("imported_at", "text", (c) => c.notNull())
    .addColumn("actor_ip", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("rows", "integer", (c) => c.notNull())
    .addColumn("added", "integer", (c) => c.notNull())
    .addColumn("known", "integer", (c) => c.notNull())
    .addColumn("skipped", "integer", (c) => c.notNull())
    .addColumn("covers_from", "text")
    .addColumn("covers_to", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("mpesa_imports").ifExists().execute();
  await db.schema.dropTable("received_payments").ifExists().execute();
}
