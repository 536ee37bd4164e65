/**
 * Where an order's payment stands in M-Pesa's records, as staff lists, the JSON API and the
 * order page carry it (reconciliation decides it: `decidePaymentState`):
 * - verified: a received payment has the order's code and at least the order's amount;
 * - short: the code was paid, but less;
 * - not_found: no such payment although the records cover the order's time and a day after;
 * - unmatched: no such payment yet (the normal state before it arrives).
 * No server code: the order screens import the type, the words and the check rule.
 */
export type PaymentState = "verified" | "short" | "unmatched" | "not_found";

/** An order's payment as the admin JSON lists and staff screens carry it. */
export type PaymentView = {
  state: PaymentState;
  receivedAmount: number | null;
  receivedAt: string | null;
  payerName: string | null;
  /** Present (true) only when the payment was made before the event's sales opened. */
  beforeSales?: true;
};

export const PAYMENT_STATES: readonly PaymentState[] = ["verified", "short", "unmatched", "not_found"];

/** Staff words for each state (beside the code on the order screens). */
export const PAYMENT_STATE_LABEL: Record<PaymentState, string> = {
  verified: "Payment verified",
  short: "Paid short",
  unmatched: "Payment not seen yet",
  not_found: "No such payment",
};

/** States (or a flag) that make an approval take a second, ticked confirmation. */
export const needsPaymentCheck = (p: PaymentView | undefined) =>
  !!p && (p.state === "not_found" || p.state === "short" || !!p.beforeSales);

const kes = (n: number) => `KES ${n.toLocaleString("en-KE")}`;

/** The line under the state: how short, or why 'no such payment'. */
export function paymentDetail(p: PaymentView, amount: number): string | null {
  if (p.state === "short" && p.receivedAmount !== null) return `${kes(p.receivedAmount)} received, ${kes(amount - p.receivedAmount)} short`;
  if (p.state === "not_found") return "M-Pesa's records cover this time and show no such code: a likely fake.";
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
        : `The payment with code ${code} was made before sales opened.`;
  return `${what} Tick 'Approve without a verified payment' to approve it anyway.`;
}
