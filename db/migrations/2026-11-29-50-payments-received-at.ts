import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// received_payments.received_at indexed: the background payments pass reads only the payments
// received since its last pass (the account-number rule), not every unclaimed payment each time.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("received_payments_received_at").on("received_payments").column("received_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("received_payments_received_at").execute();
}
