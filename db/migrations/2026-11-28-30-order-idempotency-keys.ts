import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// order_idempotency_keys: an `Idempotency-Key` a JSON caller sent with an order, kept with the
// order it placed, so a repeat of the same request (same key, same body) from any process is
// answered with that order instead of placing another. kind: 'badge' or 'merch' (a key belongs
// to one API); body_hash: sha-256 of the request's body as read (its keys in order); order_id:
// the order the key answers with.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("order_idempotency_keys")
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("idem_key", "text", (c) => c.notNull())
    .addColumn("body_hash", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("order_idempotency_keys_pk", ["kind", "idem_key"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("order_idempotency_keys").ifExists().execute();
}
