import { actorLabel, type Actor } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { enqueueMail, kickMailWorker } from "~/lib/mail/email.server";
import { absoluteUrl } from "~/lib/http/http.server";
import { orderPagePath } from "~/features/orders/order-page";
import { logAction } from "../activity/activity.server";
import { findOrderByReference, paymentReplyTo, type Order } from "../orders/orders.server";
import { linkReceipt, unlinkReceipt, type OrderKind } from "../payment-codes/receipt-ledger.server";
import type { PaymentView } from "../received-payments/payment-state";
import { afterPayments } from "./auto-approve.server";
import { wrongCodeEmail } from "./emails/payment-emails";
import { paymentViewsFor } from "./matching.server";
import { recordPayments } from "../received-payments/received-payments.server";

/**
 * What staff do about a payment that did not find its order by itself, on /admin/payments and
 * through POST /api/mpesa_payments.php: link an unclaimed receipt to an order, unlink a wrong
 * link, mark an order's typed code as wrong (the supporter is emailed what to do). Each is
 * logged with the staff actor; a receipt another order holds is refused with a sentence.
 */

/** An order as the receipt actions need it: the one shape, with its typed code as `code`. */
type FoundOrder = Order & { code: string };

async function findOrder(db: Db, orderId: string): Promise<FoundOrder> {
  const order = await findOrderByReference(db, orderId);
  if (order) return { ...order, code: order.paymentReference };
  throw new DomainError("not_found", `There is no order ${orderId}. Check the reference (BO-… for a badge, MO-… for merchandise).`);
}

async function receivedPayment(db: Db, transId: string) {
  let p = await db.selectFrom("received_payments").select(["code", "amount"]).where("code", "=", transId).executeTakeFirst();
  if (!p) {
    // A confirmation set aside as paid to another number: staff linking it say it is the site's money.
    const aside = await db.selectFrom("callbacks_set_aside").selectAll().where("trans_id", "=", transId).where("reason", "=", "other_number").executeTakeFirst();
    if (aside && aside.amount !== null && aside.paid_at) {
      let raw: Record<string, unknown> = {};
      try {
        raw = JSON.parse(aside.body) as Record<string, unknown>;
      } catch {
        raw = { body: aside.body.slice(0, 2000) };
      }
      await recordPayments(db, [
        { code: aside.trans_id, amount: aside.amount, paidAt: aside.paid_at, payerName: aside.payer_name, payerPhone: aside.payer_phone, accountRef: aside.account_ref, shortcode: aside.shortcode, source: "callback", raw },
      ]);
      p = await db.selectFrom("received_payments").select(["code", "amount"]).where("code", "=", transId).executeTakeFirst();
    }
  }
  if (!p) {
    throw new DomainError(
      "not_found",
      `No payment ${transId} has reached the site. Import the statement that shows it, or wait for M-Pesa's confirmation, then link it.`,
    );
  }
  return p;
}

/** The order's payment as it now stands. */
async function paymentOf(db: Db, o: FoundOrder): Promise<PaymentView> {
  return (await paymentViewsFor(db, [{ kind: o.kind, id: o.id, code: o.code, amount: o.amount, createdAt: o.createdAt }]))[0]!;
}

export type ReceiptActionOutcome = { kind: OrderKind; orderId: string; transId: string; amount: number; payment: PaymentView; already?: true };

/** Links a received payment to an order (matched by staff). Linking it twice to the same order changes nothing. */
export async function linkPaymentToOrder(db: Db, input: { transId: string; orderId: string }, actor: Actor): Promise<ReceiptActionOutcome> {
  const order = await findOrder(db, input.orderId);
  const paid = await receivedPayment(db, input.transId);
  const added = await db.transaction().execute((trx) =>
    linkReceipt(trx, { transId: paid.code, kind: order.kind, orderId: order.id, matchedBy: "staff", linkedBy: actorLabel(actor) }),
  );
  const outcome: ReceiptActionOutcome = { kind: order.kind, orderId: order.id, transId: paid.code, amount: order.amount, payment: await paymentOf(db, order) };
  if (!added) return { ...outcome, already: true };
  await logAction(db, actor, {
    type: "payments.link",
    message: `M-Pesa payment ${paid.code} (KES ${paid.amount}) linked to ${order.id} by staff`,
    meta: { transId: paid.code, orderId: order.id, matchedBy: "staff", state: outcome.payment.state },
  });
  afterPayments();
  return outcome;
}

/** Takes a receipt away from an order (its link, or its typed code's match); no rule links the pair again. */
export async function unlinkPaymentFromOrder(db: Db, input: { transId: string; orderId: string }, actor: Actor): Promise<ReceiptActionOutcome> {
  const order = await findOrder(db, input.orderId);
  const held = (await paymentOf(db, order)).receipts.find((r) => r.transId === input.transId);
  if (!held) throw new DomainError("conflict", `Payment ${input.transId} is not linked to order ${order.id}: nothing to unlink.`);
  await db.transaction().execute((trx) =>
    unlinkReceipt(trx, { transId: input.transId, kind: order.kind, orderId: order.id, reason: "unlinked", by: actorLabel(actor) }),
  );
  const payment = await paymentOf(db, order);
  await logAction(db, actor, {
    type: "payments.unlink",
    message: `M-Pesa payment ${input.transId} unlinked from ${order.id} (it was matched by ${held.matchedBy})`,
    meta: { transId: input.transId, orderId: order.id, matchedBy: held.matchedBy, state: payment.state },
  });
  afterPayments();
  return { kind: order.kind, orderId: order.id, transId: input.transId, amount: order.amount, payment };
}

/**
 * Marks the code typed with an order as wrong: a payment with that code is no longer the
 * order's (it stays unclaimed, for staff to link to the order it pays), and the supporter is
 * emailed what to do, in the same transaction. Refused when a payment with that code counts for the order (unlink it
 * instead), when the order was rejected, or when the code is already marked.
 */
export async function markOrderCodeWrong(db: Db, input: { orderId: string }, actor: Actor): Promise<ReceiptActionOutcome> {
  const order = await findOrder(db, input.orderId);
  if (order.status === "rejected") throw new DomainError("conflict", `Order ${order.id} was rejected: its code needs nothing more.`);
  const before = await paymentOf(db, order);
  if (before.codeWrong) throw new DomainError("conflict", `The code of order ${order.id} (${order.code}) is already marked wrong; the supporter was emailed.`);
  if (before.receipts.some((r) => r.matchedBy === "code")) {
    throw new DomainError(
      "conflict",
      `M-Pesa shows a payment with code ${order.code} for order ${order.id}. If that payment is not this order's, unlink it instead.`,
    );
  }
  await db.transaction().execute(async (trx) => {
    await unlinkReceipt(trx, { transId: order.code, kind: order.kind, orderId: order.id, reason: "wrong_code", by: actorLabel(actor) });
    await enqueueMail(trx, {
      kind: "payments.code_wrong",
      to: order.email,
      ...paymentReplyTo(order.kind),
      ...wrongCodeEmail({ ...order, reference: order.id, orderUrl: absoluteUrl(orderPagePath(order.id, order.token)) }),
    });
  });
  void kickMailWorker();
  const payment = await paymentOf(db, order);
  await logAction(db, actor, {
    type: "payments.code_wrong",
    message: `Code ${order.code} of ${order.id} marked wrong; ${order.email} emailed what to do`,
    meta: { orderId: order.id, code: order.code },
  });
  afterPayments();
  return { kind: order.kind, orderId: order.id, transId: order.code, amount: order.amount, payment };
}
