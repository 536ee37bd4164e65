import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// mail_suppressions: addresses whose mail server refused a message for good (a 5xx answer to
// RCPT or DATA: no such mailbox). Bulk mail (blog notices) is not sent to them until the
// address subscribes again. mail_health: one row (id 1) counting failed delivery attempts in a
// row (a mail server away, refusing connections), set back to 0 by the next message sent; what
// /readyz and /admin read to say mail is failing.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("mail_suppressions")
    .addColumn("address", "text", (c) => c.primaryKey())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("suppressed_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("mail_health")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("failures_in_row", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("first_failure_at", "text")
    .addColumn("last_failure_at", "text")
    .addColumn("last_error", "text")
    .execute();
  await db.insertInto("mail_health").values({ id: 1, failures_in_row: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("mail_health").ifExists().execute();
  await db.schema.dropTable("mail_suppressions").ifExists().execute();
}
