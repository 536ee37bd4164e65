import type { Db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { lockReceipt } from "./receipt-ledger.server";

export const PAYMENT_CODE_USED =
  "This payment confirmation code has already been used for an order. Check the code, or email us if you think this is a mistake.";

/**
 * Records that `code` pays for `orderId`. Call it inside the order's transaction: one code
 * pays for one order of any kind (badge or merch); a second use is a 409, and so is a code
 * whose receipt another order already holds (receipt-ledger.server.ts).
 */
export async function claimPaymentCode(db: Db, code: string, kind: "badge" | "merch", orderId: string) {
  await lockReceipt(db, code);
  const linked = await db.selectFrom("order_receipts").select("order_id").where("trans_id", "=", code).executeTakeFirst();
  if (linked) throw new DomainError("conflict", PAYMENT_CODE_USED);
  const res = await db
    .insertInto("payment_codes")
    .values({ code, kind, order_id: orderId, created_at: nowIso() })
    .onConflict((oc) => oc.column("code").doNothing())
    .executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0) !== 1) throw new DomainError("conflict", PAYMENT_CODE_USED);
}
