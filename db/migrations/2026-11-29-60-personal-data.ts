import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// Personal data kept as the Data Protection Act expects.
// data_requests: a person's own request from /privacy/my-data ('export' or 'erase'), keyed by a
// SHA-256 of the random token in the link mailed to the address (valid until expires_at);
// confirmed_at: when the link was opened; done_at: when staff erased (an 'erase' request).
// retention_runs: each retention rule's last run (when, and how many records it changed).
// forgotten_addresses: SHA-256 of unsubscribed addresses removed by retention, so an import does
// not add them again. consent_version / consent_at on subscriptions and applications: the notice
// wording's version and when it was agreed to (the source is their `source`). applications.kept:
// staff keep one past the retention period.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("data_requests")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("confirmed_at", "text")
    .addColumn("done_at", "text")
    .execute();
  await db.schema.createIndex("data_requests_email").on("data_requests").column("email").execute();
  await db.schema
    .createTable("retention_runs")
    .addColumn("rule", "text", (c) => c.primaryKey())
    .addColumn("ran_at", "text", (c) => c.notNull())
    .addColumn("removed", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("forgotten_addresses")
    .addColumn("hash", "text", (c) => c.primaryKey())
    .addColumn("forgotten_at", "text", (c) => c.notNull())
    .execute();
  for (const table of ["subscribers", "applications"]) {
    await db.schema.alterTable(table).addColumn("consent_version", "text", (c) => c.notNull().defaultTo("")).execute();
    await db.schema.alterTable(table).addColumn("consent_at", "text").execute();
  }
  await db.schema.alterTable("applications").addColumn("kept", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("applications").dropColumn("kept").execute();
  for (const table of ["subscribers", "applications"]) {
    await db.schema.alterTable(table).dropColumn("consent_at").execute();
    await db.schema.alterTable(table).dropColumn("consent_version").execute();
  }
  await db.schema.dropTable("forgotten_addresses").ifExists().execute();
  await db.schema.dropTable("retention_runs").ifExists().execute();
  await db.schema.dropTable("data_requests").ifExists().execute();
}
