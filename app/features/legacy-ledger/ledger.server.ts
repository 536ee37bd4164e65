import { nowIso, type Db } from "~/lib/db/db.server";

/**
 * What the old-site import has taken, by file kind and the old site's key, so a second import
 * of the same files adds nothing.
 */

/** The keys of one kind already taken. */
export async function importedKeys(db: Db, kind: string): Promise<Set<string>> {
  const rows = await db.selectFrom("legacy_imports").select("key").where("kind", "=", kind).execute();
  return new Set(rows.map((r) => r.key));
}

/** Records records taken (or found already here). */
export async function rememberImported(db: Db, kind: string, taken: { key: string; target: string }[]) {
  const at = nowIso();
  for (let i = 0; i < taken.length; i += 200) {
    const rows = taken.slice(i, i + 200).map((t) => ({ kind, key: t.key, target: t.target, imported_at: at }));
    await db.insertInto("legacy_imports").values(rows).onConflict((oc) => oc.columns(["kind", "key"]).doNothing()).execute();
  }
}

/** What an old key became here ('' when it was taken as nothing), or null when not taken. */
export async function importedTarget(db: Db, kind: string, key: string): Promise<string | null> {
  const row = await db.selectFrom("legacy_imports").select("target").where("kind", "=", kind).where("key", "=", key).executeTakeFirst();
  return row ? row.target : null;
}

/** The order here that an old order reference (order_…, mo_…) became, or null. */
export async function orderForOldReference(db: Db, reference: string): Promise<string | null> {
  const row = await db
    .selectFrom("legacy_imports")
    .select("target")
    .where("kind", "in", ["badge_order", "merch_order"])
    .where("key", "=", reference.trim().toLowerCase())
    .executeTakeFirst();
  return row?.target || null;
}

/** The old reference an imported order was known by, or null. */
export async function oldReferenceOf(db: Db, orderId: string): Promise<string | null> {
  const row = await db.selectFrom("legacy_imports").select("key").where("kind", "in", ["badge_order", "merch_order"]).where("target", "=", orderId).executeTakeFirst();
  return row?.key ?? null;
}
