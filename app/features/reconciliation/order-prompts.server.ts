import { DomainError } from "~/lib/core/domain-error";
import { env } from "~/lib/server/env.server";
import type { Db } from "~/lib/db/db.server";
import { safeEqual } from "~/lib/db/secrets.server";
import { site } from "~/lib/core/site";
import { findOrderByReference } from "../orders/orders.server";
import type { OrderKind } from "../payment-codes/receipt-ledger.server";
import { INVALID_PHONE_CODE, mpesaPhone, PHONE_MESSAGE } from "../stk-push/stk-push";
import { ALREADY_PAID, minutes, orderToPay, sendStkPush, stkStatusOf, UNKNOWN_HOLD_MS, type StkSendResult } from "../stk-push/stk-push.server";
import { afterPayments } from "./auto-approve.server";
import { paymentStateFor } from "./matching.server";
import type { OrderPage } from "./order-status";
import { paymentWords } from "./order-words";

/**
 * M-Pesa Express as the order's payment sees it: whether the order is paid in full from every
 * source, the order page's prompt panel, and 'Send the prompt again', which is refused once the
 * order is paid. The prompt mechanics (Daraja, limits, callbacks, queries) are stk-push's.
 */

/**
 * Whether the order's whole amount is paid, from every source the ledger knows (its code, a
 * callback, C2B, a statement, a staff link), counting a prompt M-Pesa's query said was paid
 * (its receipt number still to come) for the amount pushed. A reversed payment pays nothing.
 */
export async function orderPaidInFull(db: Db, kind: OrderKind, orderId: string): Promise<boolean> {
  const order = await orderToPay(db, kind, orderId);
  const standing = await paymentStateFor(db, { kind, id: orderId, code: order.code, amount: order.amount, createdAt: order.createdAt });
  const received = standing.state === "reversed" ? 0 : (standing.receivedAmount ?? 0);
  const queried = await db.selectFrom("stk_pushes").select("amount").where("order_id", "=", orderId).where("state", "=", "paid").where("receipt", "is", null).execute();
  return received + queried.reduce((sum, r) => sum + r.amount, 0) >= order.amount;
}

/** The order a token opens, with the phone typed for it, or not_found. */
async function ownOrder(db: Db, orderId: string, token: string): Promise<{ kind: OrderKind; phone: string }> {
  const order = await findOrderByReference(db, orderId);
  if (!order || !order.token || !safeEqual(token, order.token)) throw new DomainError("not_found", "Unknown order, or the link is not this order's.");
  return { kind: order.kind, phone: order.phone };
}

/**
 * 'Send the prompt again', from the order's own page (its token): to the phone typed with the
 * order, so nobody can aim prompts at a stranger's phone; to a corrected number only once M-Pesa
 * refused the order's latest prompt for its number. Not while a prompt's result is unknown for
 * UNKNOWN_HOLD_MS (the payer checks their messages first), nor once the order is paid.
 */
export async function resendPrompt(db: Db, input: { orderId: string; token: string; ip: string; phone?: string }, now = new Date()): Promise<StkSendResult> {
  const order = await ownOrder(db, input.orderId, input.token);
  const latest = await db.selectFrom("stk_pushes").selectAll().where("order_id", "=", input.orderId).orderBy("id", "desc").limit(1).executeTakeFirst();
  let phone = order.phone;
  if (input.phone && input.phone.trim() && mpesaPhone(input.phone) !== mpesaPhone(order.phone)) {
    if (latest?.result_code !== INVALID_PHONE_CODE) throw new DomainError("invalid", "The prompt goes to the phone number given with the order.", "phone");
    if (!mpesaPhone(input.phone)) throw new DomainError("invalid", PHONE_MESSAGE, "phone");
    phone = input.phone;
  }
  if (!mpesaPhone(phone)) throw new DomainError("invalid", `This order's phone number is not an M-Pesa number (${PHONE_MESSAGE}) Pay by paybill instead.`);
  if (latest && (latest.state === "sent" || latest.state === "unknown")) {
    const wait = Date.parse(latest.sent_at) + UNKNOWN_HOLD_MS - now.getTime();
    if (wait > 0) {
      const retryAfterSeconds = Math.ceil(wait / 1000);
      return {
        state: "refused",
        retryAfterSeconds,
        message: `A prompt went to this order a moment ago and its result is not known yet. Please check your M-Pesa messages first; you can send another in ${minutes(retryAfterSeconds)}.`,
      };
    }
  }
  const owed = await orderToPay(db, order.kind, input.orderId);
  if (owed.status === "pending" && (await orderPaidInFull(db, order.kind, input.orderId))) throw new DomainError("conflict", ALREADY_PAID);
  const sent = await sendStkPush(db, { kind: order.kind, orderId: input.orderId, phone, ip: input.ip }, now);
  // A result callback that came before the push's answer settles the prompt as it is sent.
  if (sent.state === "sent") afterPayments();
  return sent;
}

/** Prompts refresh a page without JavaScript for this long after they were sent. */
export const REFRESH_FOR_MS = 2 * 60_000;

/**
 * The order page's panel: the latest prompt (or the paid one), or null when none was sent. It
 * follows the order's whole payment: once receipts from any source cover the order (or M-Pesa's
 * query said its prompt was paid), or a payment was reversed, it says what the payment section
 * says (the same sentence), and offers no prompt.
 */
export async function stkPanelOf(db: Db, order: OrderPage, token: string, now = new Date()) {
  const status = await stkStatusOf(db, order.reference);
  if (!status) return null;
  const promptPaid = status.state === "paid" && !status.receipt && order.payment.receivedAmount === null;
  // No prompt of this order reached Daraja (refused by a limit, by Daraja, or Daraja down): the payer pays by paybill.
  const reached = await db
    .selectFrom("stk_pushes")
    .select("id")
    .where("order_id", "=", order.reference)
    .where((eb) => eb.or([eb("checkout_request_id", "is not", null), eb("state", "!=", "failed")]))
    .executeTakeFirst();
  const paidInFull = promptPaid || (await orderPaidInFull(db, order.kind, order.reference));
  const words = paymentWords(order.payment, { ...order, promptPaid });
  const resendAt = status.state === "sent" || status.state === "unknown" ? new Date(Date.parse(status.sentAt) + UNKNOWN_HOLD_MS).toISOString() : null;
  return {
    ...status,
    orderId: order.reference,
    token,
    orgName: site.name,
    paybill: env().stk?.shortcode ?? env().mpesaShortcode,
    refreshing: status.state === "sent" && now.getTime() - Date.parse(status.sentAt) < REFRESH_FOR_MS,
    promptPaid,
    noPromptSent: !reached,
    orderPaid: paidInFull,
    /** The payment section's own headline, when the order's payment (not the prompt) decides what the panel says. */
    paymentSentence: paidInFull || order.payment.state === "reversed" ? words.headline : null,
    /** A new prompt is not offered before this (a push whose result is not known yet). */
    resendAfter: resendAt && Date.parse(resendAt) > now.getTime() ? resendAt : null,
  };
}

/** 'Send the prompt again' on the order page: null error when sent (or failed: the page says so), else the sentence and its status. */
export async function resendPromptFromPage(db: Db, input: { orderId: string; token: string; ip: string; phone?: string }): Promise<{ error: null } | { error: string; status: number }> {
  try {
    const sent = await resendPrompt(db, input);
    return sent.state === "refused" ? { error: sent.message, status: 429 } : { error: null };
  } catch (e) {
    if (e instanceof DomainError) return { error: e.message, status: e.code === "not_found" ? 404 : e.code === "conflict" ? 409 : 400 };
    throw e;
  }
}
