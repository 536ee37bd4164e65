import type { PaymentView } from "../received-payments/payment-state";

/**
 * What a supporter reads about their order on its private page: plain words, no staff terms.
 * Safe for the browser (no server code).
 */
import { formatNairobiDayAt } from "~/lib/nairobi-time";

const money = (amount: number, currency: string) => `${currency} ${amount.toLocaleString("en-KE")}`;

export const NOT_SEEN = "We have not seen this payment yet";

export function paymentWords(p: PaymentView, order: { amount: number; currency: string }): { headline: string; detail: string } {
  if ((p.state === "verified" || p.state === "short") && p.receivedAmount !== null && p.receivedAt) {
    const headline = `Payment received: ${money(p.receivedAmount, order.currency)} on ${formatNairobiDayAt(p.receivedAt)}`;
    if (p.state === "verified") return { headline, detail: "Thank you: M-Pesa's records show your payment in full." };
    const missing = order.amount - p.receivedAmount;
    return {
      headline,
      detail: `That is ${money(missing, order.currency)} less than this order's ${money(order.amount, order.currency)}. Please pay the difference with the same account reference, or reply to your order email.`,
    };
  }
  if (p.state === "reversed") {
    return {
      headline: "This payment was reversed",
      detail:
        "M-Pesa gave the money for this payment back to the phone that paid, so this order is not paid. If you did not ask for that, please reply to your order email and we will help you.",
    };
  }
  if (p.state === "not_found") {
    return {
      headline: NOT_SEEN,
      detail:
        "Please check the M-Pesa code in your confirmation message against the one below. If it is right, reply to your order email with that message and we will look into it. Please do not pay again.",
    };
  }
  return {
    headline: NOT_SEEN,
    detail: "Payments usually show here within minutes; some take until our team checks the paybill statement. There is no need to pay again.",
  };
}

export type ReviewStatus = "pending" | "approved" | "rejected" | "revoked";

export function reviewWords(kind: "badge" | "merch", status: ReviewStatus): string {
  if (status === "approved") {
    return kind === "badge"
      ? "Approved: your badge and 'Will Be Attending' poster are below, and in your email."
      : "Approved: the merch team will contact you to arrange delivery.";
  }
  if (status === "revoked") {
    return "Your badge was cancelled: it no longer gets you in at the door, so its entry code and downloads are no longer here.";
  }
  if (status === "rejected") return "Not accepted. We have emailed you why; reply to that email if you think this is a mistake.";
  return "Waiting for our team to check it.";
}
