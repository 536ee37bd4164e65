/**
 * Where an order's payment stands in M-Pesa's records, as staff lists, the JSON API and the
 * order page carry it (reconciliation decides it: `decidePaymentState`):
 * - verified: a received payment has the order's code and at least the order's amount;
 * - short: the code was paid, but less;
 * - not_found: no such payment although statements of the site's numbers state a period covering
 *   the order's time (callbacks alone never say so);
 * - unmatched: no such payment yet (the normal state before it arrives);
 * - reversed: the payment arrived, then M-Pesa took it back (a statement's Reversal row).
 * No server code: the order screens import the type, the words and the check rule.
 */
import { formatNairobiTimeEat } from "~/lib/nairobi-time";

export type PaymentState = "verified" | "short" | "unmatched" | "not_found" | "reversed";

/** An order's payment as the admin JSON lists and staff screens carry it. */
export type PaymentView = {
  state: PaymentState;
  receivedAmount: number | null;
  receivedAt: string | null;
  payerName: string | null;
  /** Present (true) only when the payment was made before the event's sales opened. */
  beforeSales?: true;
  /** Present only when reversed: the reversal's receipt and when M-Pesa took the payment back. */
  reversedBy?: string;
  reversedAt?: string;
};

export const PAYMENT_STATES: readonly PaymentState[] = ["verified", "short", "unmatched", "not_found", "reversed"];

/** Staff words for each state (beside the code on the order screens). */
export const PAYMENT_STATE_LABEL: Record<PaymentState, string> = {
  verified: "Payment verified",
  short: "Paid short",
  unmatched: "Payment not seen yet",
  not_found: "No such payment",
  reversed: "Reversed by M-Pesa",
};

/** States (or a flag) that make an approval take a second, ticked confirmation. */
export const needsPaymentCheck = (p: PaymentView | undefined) =>
  !!p && (p.state === "not_found" || p.state === "short" || p.state === "reversed" || !!p.beforeSales);

const kes = (n: number) => `KES ${n.toLocaleString("en-KE")}`;

/** The line under the state: how short, or why 'no such payment'. */
export function paymentDetail(p: PaymentView, amount: number): string | null {
  if (p.state === "short" && p.receivedAmount !== null) return `${kes(p.receivedAmount)} received, ${kes(amount - p.receivedAmount)} short`;
  if (p.state === "not_found") return "M-Pesa's statements cover this time and show no such code: a likely fake.";
  if (p.state === "reversed") return reversedWords(p);
  if (p.state === "verified" && p.receivedAmount !== null) return `${kes(p.receivedAmount)} received`;
  return null;
}

/** Why an approval waits for the tick (the refusal staff read). */
export function paymentCheckMessage(p: PaymentView, code: string, amount: number): string {
  const what =
    p.state === "short" && p.receivedAmount !== null
      ? `M-Pesa shows ${kes(p.receivedAmount)} for code ${code}, ${kes(amount - p.receivedAmount)} less than the order.`
      : p.state === "not_found"
        ? `M-Pesa's records show no payment with code ${code}.`
        : p.state === "reversed"
          ? `M-Pesa reversed the payment with code ${code}${p.reversedBy ? ` (reversal ${p.reversedBy})` : ""}: the money went back to the payer.`
          : `The payment with code ${code} was made before sales opened.`;
  return `${what} Tick 'Approve without a verified payment' to approve it anyway.`;
}

/** 'KES 1,300 received, then reversed by M-Pesa (receipt TKR9X0AB12) on 27 Nov 10:05 EAT.' */
export function reversedWords(p: PaymentView): string {
  const when = p.reversedAt ? ` on ${formatNairobiTimeEat(p.reversedAt)}` : "";
  const what = p.receivedAmount !== null ? `${kes(p.receivedAmount)} received, then reversed by M-Pesa` : "Reversed by M-Pesa";
  return `${what}${p.reversedBy ? ` (receipt ${p.reversedBy})` : ""}${when}: the money went back to the payer.`;
}
