/**
 * Where an order's payment stands in M-Pesa's records, as staff lists, the JSON API and the
 * order page carry it (reconciliation decides it: `decidePaymentState`). An order holds one or
 * more receipts (its typed code's, a top-up, a payment whose account number is the order's
 * reference, one staff linked); what it received is their sum:
 * - verified: exactly the order's amount;
 * - short: less (a top-up can complete it);
 * - over: more than the order's amount (staff see the difference);
 * - early: a receipt was paid long before the order (more than 7 days, or before badge sales
 *   opened): an old code passed off as new, or a mix-up;
 * - reversed: M-Pesa reversed a receipt (a statement's 'Reversal' row);
 * - not_found: no such payment although statements of the site's numbers state a period covering
 *   the order's time (callbacks alone never say so);
 * - unmatched: no payment yet (the normal state before it arrives).
 * No server code: the order screens import the type, the words and the check rule.
 */
import { formatNairobiTimeEat } from "~/lib/core/nairobi-time";
import { formatAmount } from "~/lib/core/plain-format";

export type PaymentState = "verified" | "short" | "over" | "early" | "reversed" | "unmatched" | "not_found";

/** Which rule gave an order a receipt: its typed code, its reference as the account number, staff (STK push later). */
export type MatchedBy = "code" | "account" | "staff" | "stk";

/** One receipt an order holds. */
export type ReceiptView = { transId: string; amount: number; at: string; payerName: string; matchedBy: MatchedBy };

/**
 * An unclaimed receipt that is probably this order's: one character (or an O/0, I/1, S/5, B/8,
 * Z/2 look-alike) from the typed code, the order's amount, paid near the order. Offered to
 * staff only: never counted, never approved on its own.
 */
export type SuggestedReceipt = { transId: string; amount: number; at: string; payerName: string };

/** An order's payment as the admin JSON lists and staff screens carry it. */
export type PaymentView = {
  state: PaymentState;
  /** The sum of the receipts; null when there are none. */
  receivedAmount: number | null;
  /** When the latest receipt was paid. */
  receivedAt: string | null;
  /** Who paid the first receipt. */
  payerName: string | null;
  receipts: ReceiptView[];
  /** Present (true) only when a receipt was paid before the event's badge sales opened. */
  beforeSales?: true;
  /** Present only when there are some: 'probably this order' (see SuggestedReceipt). */
  suggestions?: SuggestedReceipt[];
  /** Present only when reversed: the reversal's receipt and when M-Pesa took the payment back. */
  reversedBy?: string;
  reversedAt?: string;
  /** Present (true) only when staff marked the order's typed code as wrong (the supporter was emailed). */
  codeWrong?: true;
  /** Present only on staff screens for an `unmatched` order: when M-Pesa last reached the site (payment-arrivals.server.ts). */
  lastSeen?: { callbackAt: string | null; statementAt: string | null };
};

export const PAYMENT_STATES: readonly PaymentState[] = ["verified", "short", "over", "early", "reversed", "unmatched", "not_found"];

/** Staff words for each state (beside the code on the order screens). */
export const PAYMENT_STATE_LABEL: Record<PaymentState, string> = {
  verified: "Payment verified",
  short: "Paid short",
  over: "Paid more",
  early: "Paid early",
  unmatched: "Payment not seen yet",
  not_found: "No such payment",
  reversed: "Reversed by M-Pesa",
};

/** How each receipt came to the order, in staff words. */
export const MATCHED_BY_LABEL: Record<MatchedBy, string> = {
  code: "its code",
  account: "its account number",
  staff: "linked by staff",
  stk: "STK push",
};

/** How long before an order a payment may be made before it is flagged `early`. */
export const EARLY_DAYS = 7;

/** States (or a flag) that make an approval take a second, ticked confirmation. */
export const needsPaymentCheck = (p: PaymentView | undefined) =>
  !!p && (p.state === "not_found" || p.state === "short" || p.state === "early" || p.state === "reversed" || !!p.beforeSales);

/** How the received sum compares with the order's amount ('' when equal). */
function difference(received: number, amount: number): string {
  if (received < amount) return `, ${formatAmount(amount - received)} short`;
  if (received > amount) return `, ${formatAmount(received - amount)} more than the order`;
  return "";
}

/** The line under the state: how short or over, why early, or why 'no such payment'. */
export function paymentDetail(p: PaymentView, amount: number): string | null {
  const received = p.receivedAmount;
  if (p.state === "not_found") return "M-Pesa's statements cover this time and show no such code: a likely fake.";
  if (p.state === "reversed") return reversedWords(p);
  if (received === null) return null;
  if (p.state === "early") {
    const when = p.beforeSales ? "paid before sales opened" : `paid more than ${EARLY_DAYS} days before the order`;
    return `${formatAmount(received)} received${difference(received, amount)}; ${when}`;
  }
  return `${formatAmount(received)} received${difference(received, amount)}`;
}

/** Why an approval waits for the tick (the refusal staff read). */
export function paymentCheckMessage(p: PaymentView, code: string, amount: number): string {
  const paidWith = p.receipts.length > 0 ? p.receipts.map((r) => r.transId).join(" and ") : code;
  const what =
    p.state === "short" && p.receivedAmount !== null
      ? `M-Pesa shows ${formatAmount(p.receivedAmount)} for code ${paidWith}, ${formatAmount(amount - p.receivedAmount)} less than the order.`
      : p.state === "not_found"
        ? `M-Pesa's records show no payment with code ${code}.`
        : p.state === "reversed"
          ? `M-Pesa reversed the payment with code ${paidWith}${p.reversedBy ? ` (reversal ${p.reversedBy})` : ""}: the money went back to the payer.`
          : p.beforeSales
            ? `The payment with code ${paidWith} was made before sales opened.`
            : `The payment with code ${paidWith} was made more than ${EARLY_DAYS} days before the order.`;
  return `${what} Tick 'Approve without a verified payment' to approve it anyway.`;
}

/** 'KES 1,300 received, then reversed by M-Pesa (receipt TKR9X0AB12) on 27 Nov 10:05 EAT.' */
export function reversedWords(p: PaymentView): string {
  const when = p.reversedAt ? ` on ${formatNairobiTimeEat(p.reversedAt)}` : "";
  const what = p.receivedAmount !== null ? `${formatAmount(p.receivedAmount)} received, then reversed by M-Pesa` : "Reversed by M-Pesa";
  return `${what}${p.reversedBy ? ` (receipt ${p.reversedBy})` : ""}${when}: the money went back to the payer.`;
}
