import { sql, type Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// A merch order's 'confirmed' email is sent once: merch_orders.confirmation_sent_at records when
// it was queued (null: never). Approving again after 'Mark pending' or a rejection sends no
// second one. Orders confirmed before this column existed are filled in from the outbox (the
// email's subject names the order), else from their review time when they are approved now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("merch_orders").addColumn("confirmation_sent_at", "text").execute();
  await sql`
    update merch_orders set confirmation_sent_at = (
      select min(o.created_at) from outbox o
      where o.kind = 'merch.approved' and o.subject = 'Your merch order ' || merch_orders.id || ' is confirmed'
    )
  `.execute(db);
  await sql`
    update merch_orders set confirmation_sent_at = coalesce(reviewed_at, ts)
    where status = 'approved' and confirmation_sent_at is null
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("merch_orders").dropColumn("confirmation_sent_at").execute();
}
