import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { afterPayments } from "./auto-approve.server";
import { findOrder, setPaymentReference } from "../orders/orders.server";
import { claimPaymentCode, PAYMENT_CODE_USED } from "../payment-codes/payment-codes.server";
import { normalisePaymentCode, paymentCodeError } from "../payment-codes/payment-code";
import { receiptHolder, type OrderKind } from "../payment-codes/receipt-ledger.server";

/**
 * 'Pay by paybill instead', from the order page of an order placed to be paid by prompt: the
 * supporter paid in the M-Pesa menu and types the code from the SMS. The code is claimed for
 * this order in the ledger (one code, one order) and becomes the order's payment code, so the
 * payment is matched as for any order placed with its code. An order that already has a code
 * keeps it. The same code twice, or a receipt already joined to this order by its account
 * number, is not an error.
 */
export const LATE_CODE_SAVED = "Thank you: we have your M-Pesa code. We will match it to M-Pesa's records.";
export const ORDER_HAS_CODE = "This order already has its M-Pesa code.";

export async function addPaymentCode(db: Db, order: { kind: OrderKind; reference: string }, raw: string): Promise<{ code: string }> {
  const problem = paymentCodeError(String(raw ?? ""));
  if (problem) throw new DomainError("invalid", problem, "paymentReference");
  const code = normalisePaymentCode(raw);
  await db.transaction().execute(async (trx) => {
    const row = await findOrder(trx, order.kind, order.reference);
    if (!row) throw new DomainError("not_found", "Unknown order.");
    if (row.paymentReference === code) return;
    // Placed with a code: the prompt orders alone hold their own reference in its place.
    if (row.paymentReference !== order.reference) throw new DomainError("conflict", ORDER_HAS_CODE, "paymentReference");
    const holder = await receiptHolder(trx, code);
    if (holder && !(holder.kind === order.kind && holder.orderId === order.reference)) throw new DomainError("conflict", PAYMENT_CODE_USED, "paymentReference");
    if (!holder) await claimPaymentCode(trx, code, order.kind, order.reference);
    await setPaymentReference(trx, order.kind, order.reference, code);
  });
  afterPayments();
  return { code };
}
