import type { PaymentView } from "../received-payments/payment-state";

/**
 * What a supporter reads about their order on its private page: plain words, no staff terms.
 * Safe for the browser (no server code).
 */
import { formatNairobiDayAt } from "~/lib/core/nairobi-time";
import { ORDER_KINDS, type OrderKind } from "~/features/orders/order-kinds";
import { formatAmount } from "~/lib/core/plain-format";

export const NOT_SEEN = "We have not seen this payment yet";

/** The order as its words need it: the amount, and (for 'how to pay the rest') its kind and reference. */
type OrderForWords = { amount: number; currency: string; kind?: OrderKind; reference?: string; promptPaid?: boolean; noPromptSent?: boolean };

/** M-Pesa said (by query) the order's prompt was paid; the receipt number follows by callback, C2B or statement. */
export const PROMPT_PAID_HEADLINE = "Paid: M-Pesa says your payment went through";

/** Where to pay more, so the payment joins this order by itself: the paybill and the order's reference as the account number. */
function payHow(order: OrderForWords): string {
  // An order of no stated kind is told the event paybill.
  const paybill = ORDER_KINDS[order.kind ?? "badge"].paybill;
  return order.reference ? `to paybill ${paybill} with account number ${order.reference} (your order reference)` : `to paybill ${paybill}`;
}

export function paymentWords(p: PaymentView, order: OrderForWords): { headline: string; detail: string } {
  if (p.receivedAmount !== null && p.receivedAt) {
    const several = p.receipts.length > 1 ? ` in ${p.receipts.length} payments, the last` : "";
    const headline = `Payment received: ${formatAmount(p.receivedAmount, order.currency)}${several} on ${formatNairobiDayAt(p.receivedAt)}`;
    const missing = order.amount - p.receivedAmount;
    switch (p.state) {
      case "verified":
        return { headline, detail: "Thank you: M-Pesa's records show your payment in full." };
      case "short":
        return {
          headline,
          detail: `That is ${formatAmount(missing, order.currency)} less than this order's ${formatAmount(order.amount, order.currency)}. Please pay the difference ${payHow(order)} and it will join this order, or reply to your order email.`,
        };
      case "over":
        return {
          headline,
          detail: `Thank you: that is ${formatAmount(-missing, order.currency)} more than this order's ${formatAmount(order.amount, order.currency)}, so your order is paid. Our team will contact you about the extra ${formatAmount(-missing, order.currency)}; you do not need to do anything.`,
        };
      case "early":
        return {
          headline,
          detail: "This payment was made some time before your order, so our team will check it by hand before approving. You do not need to do anything; we will email you if we need more.",
        };
    }
  }
  if (order.promptPaid && p.state !== "reversed") {
    return { headline: PROMPT_PAID_HEADLINE, detail: "Thank you. The M-Pesa receipt number will show here when it reaches us. There is no need to pay again." };
  }
  if (p.state === "reversed") {
    return {
      headline: "This payment was reversed",
      detail:
        "M-Pesa gave the money for this payment back to the phone that paid, so this order is not paid. If you did not ask for that, please reply to your order email and we will help you.",
    };
  }
  if (p.codeWrong) {
    return {
      headline: NOT_SEEN,
      detail: `The M-Pesa code given with this order does not match any payment we have received. We have emailed you what to do: reply with your M-Pesa confirmation message, or, if you have not paid yet, pay ${payHow(order)}.`,
    };
  }
  if (p.state === "not_found") {
    return {
      headline: NOT_SEEN,
      detail:
        "Please check the M-Pesa code in your confirmation message against the one below. If it is right, reply to your order email with that message and we will look into it. Please do not pay again.",
    };
  }
  if (order.noPromptSent && p.receipts.length === 0) {
    return { headline: NOT_SEEN, detail: `No M-Pesa prompt reached your phone for this order, so nothing was paid with it. Please pay ${payHow(order)}.` };
  }
  return {
    headline: NOT_SEEN,
    detail: "Payments usually show here within minutes; some take until our team checks the paybill statement. There is no need to pay again.",
  };
}

export type ReviewStatus = "pending" | "approved" | "rejected" | "revoked";

export function reviewWords(kind: OrderKind, status: ReviewStatus): string {
  if (status === "approved") {
    return ORDER_KINDS[kind].approvedWords;
  }
  if (status === "revoked") {
    return "Your badge was cancelled: it no longer gets you in at the door, so its entry code and downloads are no longer here.";
  }
  if (status === "rejected") return "Not accepted. We have emailed you why; reply to that email if you think this is a mistake.";
  return "Waiting for our team to check it.";
}
