import { nowIso, type Db } from "~/lib/db/db.server";

/**
 * The payment-code ledger for orders moved in from the old site, which let one code pay for
 * several orders. One code still pays for one order here: the first order to name it claims it;
 * a later one is imported all the same (never dropped) and both are flagged for staff.
 */

/** The order a code pays for here, if any. */
export async function codeHolder(db: Db, code: string): Promise<{ kind: "badge" | "merch"; orderId: string } | null> {
  const row = await db.selectFrom("payment_codes").select(["kind", "order_id"]).where("code", "=", code).executeTakeFirst();
  return row ? { kind: row.kind, orderId: row.order_id } : null;
}

/** Records that `code` pays for an imported order (the caller has found it free). */
export async function claimImportedCode(db: Db, code: string, kind: "badge" | "merch", orderId: string) {
  await db.insertInto("payment_codes").values({ code, kind, order_id: orderId, created_at: nowIso() }).execute();
}
