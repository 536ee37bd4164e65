import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// Verifiable badges (Open Badges). Team badges gain the holder's email (for the assertion's
// hashed recipient; empty when unknown) and a revocation (when, and the reason staff gave);
// supporter badges (approved badge orders) gain a revocation too. A revoked badge's hosted
// assertion answers `revoked: true` with the reason instead of disappearing.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("team_badges").addColumn("holder_email", "text", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.alterTable("team_badges").addColumn("revoked_at", "text").execute();
  await db.schema.alterTable("team_badges").addColumn("revocation_reason", "text", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.alterTable("badge_orders").addColumn("badge_revoked_at", "text").execute();
  await db.schema.alterTable("badge_orders").addColumn("badge_revocation_reason", "text", (c) => c.notNull().defaultTo("")).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ["badge_revocation_reason", "badge_revoked_at"]) await db.schema.alterTable("badge_orders").dropColumn(c).execute();
  for (const c of ["revocation_reason", "revoked_at", "holder_email"]) await db.schema.alterTable("team_badges").dropColumn(c).execute();
}
