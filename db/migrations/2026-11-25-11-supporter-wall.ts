import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// The supporter wall (/event/supporters) is opt-in: a badge order says whether its supporter
// may be listed (wall_opt_in), under which name (wall_name, empty for their first name), and
// whether their portrait may be shown too (wall_portrait). Staff can hide a listed supporter
// (wall_hidden). wall_key names the portrait in its public address, so the order id never
// appears on the wall. Orders from before this migration are not on the wall.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("badge_orders").addColumn("wall_opt_in", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("badge_orders").addColumn("wall_name", "text", (c) => c.notNull().defaultTo("")).execute();
  await db.schema.alterTable("badge_orders").addColumn("wall_portrait", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("badge_orders").addColumn("wall_hidden", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("badge_orders").addColumn("wall_key", "text").execute();
  await db.schema.createIndex("badge_orders_wall_key").on("badge_orders").column("wall_key").unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("badge_orders_wall_key").execute();
  for (const c of ["wall_key", "wall_hidden", "wall_portrait", "wall_name", "wall_opt_in"]) await db.schema.alterTable("badge_orders").dropColumn(c).execute();
}
