import type { Db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/db.server";
import { isUniqueViolation, lockName } from "~/lib/db/dialect.server";
import { DomainError } from "~/lib/core/domain-error";

/**
 * The one ledger of which order each M-Pesa receipt pays. An order's typed code is claimed in
 * `payment_codes` when the order is placed; any other receipt an order holds (a top-up, a
 * payment whose account number is the order's reference, one staff linked) is in
 * `order_receipts`. A receipt pays at most one order across both: every change takes the
 * receipt's lock first (PostgreSQL: an advisory lock held to the end of the transaction, so it
 * works before any row exists; SQLite: transactions are IMMEDIATE), then looks in both tables.
 * Call these inside a transaction.
 */
import type { OrderKind } from "~/features/orders/order-kinds";

export type { OrderKind };
export type ReceiptHolder = { kind: OrderKind; orderId: string; by: "code" | "account" | "staff" };

const HOW: Record<ReceiptHolder["by"], string> = {
  code: "the code typed with that order",
  account: "its account number",
  staff: "linked by staff",
};

/** Waits for, then holds until commit, the lock every change of this receipt's order takes. */
export const lockReceipt = (trx: Db, code: string) => lockName(trx, `receipt:${code}`);

/**
 * The order a receipt pays, whichever table says so, or null. A typed code stays claimed by
 * its order (orders keep their code, and no other order may type it again), but once staff
 * said its receipt is not that order's (`receipt_unlinks`) the claim no longer holds the receipt.
 */
export async function receiptHolder(db: Db, transId: string): Promise<ReceiptHolder | null> {
  const linked = await db.selectFrom("order_receipts").select(["kind", "order_id", "matched_by"]).where("trans_id", "=", transId).executeTakeFirst();
  if (linked) return { kind: linked.kind, orderId: linked.order_id, by: linked.matched_by };
  const claimed = await db
    .selectFrom("payment_codes as c")
    .select(["c.kind", "c.order_id"])
    .where("c.code", "=", transId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("receipt_unlinks as u").select("u.trans_id").whereRef("u.trans_id", "=", "c.code").whereRef("u.order_id", "=", "c.order_id"))))
    .executeTakeFirst();
  return claimed ? { kind: claimed.kind, orderId: claimed.order_id, by: "code" } : null;
}

export const receiptTakenMessage = (transId: string, holder: ReceiptHolder) =>
  `Payment ${transId} already belongs to order ${holder.orderId} (${HOW[holder.by]}). A payment pays one order: unlink it from ${holder.orderId} first if it is wrong there.`;

const sameOrder = (h: ReceiptHolder, kind: OrderKind, orderId: string) => h.kind === kind && h.orderId === orderId;

/**
 * Gives a receipt to an order (not by its typed code: that is `claimPaymentCode`). False when
 * it was already this order's; a conflict naming the order when it pays another. A staff link
 * also takes back an earlier 'not this order's'.
 */
export async function linkReceipt(
  trx: Db,
  link: { transId: string; kind: OrderKind; orderId: string; matchedBy: "account" | "staff"; linkedBy: string },
): Promise<boolean> {
  await lockReceipt(trx, link.transId);
  const holder = await receiptHolder(trx, link.transId);
  if (holder) {
    if (sameOrder(holder, link.kind, link.orderId)) return false;
    throw new DomainError("conflict", receiptTakenMessage(link.transId, holder));
  }
  try {
    await trx
      .insertInto("order_receipts")
      .values({ trans_id: link.transId, kind: link.kind, order_id: link.orderId, matched_by: link.matchedBy, linked_by: link.linkedBy.slice(0, 64), linked_at: nowIso() })
      .execute();
  } catch (e) {
    // Only a writer that skipped the lock could get here first (PostgreSQL has aborted this
    // transaction, so the holder cannot be read): still a refusal, not a failure.
    if (isUniqueViolation(e)) throw new DomainError("conflict", `Payment ${link.transId} was just linked to another order. Reload to see which.`);
    throw e;
  }
  if (link.matchedBy === "staff") {
    await trx.deleteFrom("receipt_unlinks").where("trans_id", "=", link.transId).where("order_id", "=", link.orderId).execute();
  }
  return true;
}

/**
 * Takes a receipt away from an order and records that it is not that order's (`reason`), so
 * no rule gives it back: a link is removed; a typed code stays the order's code but no longer
 * holds the receipt. Either way the receipt is free for another order. A receipt another order
 * holds is refused. Answers what held it here, or null when nothing did.
 */
export async function unlinkReceipt(
  trx: Db,
  unlink: { transId: string; kind: OrderKind; orderId: string; reason: "unlinked" | "wrong_code"; by: string },
): Promise<ReceiptHolder | null> {
  await lockReceipt(trx, unlink.transId);
  const holder = await receiptHolder(trx, unlink.transId);
  if (holder && !sameOrder(holder, unlink.kind, unlink.orderId)) {
    throw new DomainError("conflict", `Payment ${unlink.transId} belongs to order ${holder.orderId} (${HOW[holder.by]}), not to ${unlink.orderId}.`);
  }
  if (holder && holder.by !== "code") await trx.deleteFrom("order_receipts").where("trans_id", "=", unlink.transId).execute();
  const at = nowIso();
  const by = unlink.by.slice(0, 64);
  await trx
    .insertInto("receipt_unlinks")
    .values({ trans_id: unlink.transId, kind: unlink.kind, order_id: unlink.orderId, reason: unlink.reason, unlinked_by: by, unlinked_at: at })
    .onConflict((oc) => oc.columns(["trans_id", "order_id"]).doUpdateSet({ reason: unlink.reason, unlinked_by: by, unlinked_at: at }))
    .execute();
  return holder;
}
