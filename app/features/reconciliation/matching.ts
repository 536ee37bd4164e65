import type { PaymentState, PaymentView } from "../received-payments/payment-state";

/**
 * Where an order's payment stands, decided from M-Pesa's own records (kept apart from the
 * order's review status, as shops keep payment and fulfilment apart):
 * - verified: a received payment has the order's code and at least the order's amount;
 * - short: the code was paid, but less (by `shortBy`);
 * - not_found: no such payment although imported statements of the site's numbers state a
 *   period covering the week before the order and the day after: the likely fake. Callbacks
 *   alone never say so (one lost or refused callback must not make a payer a suspect);
 * - unmatched: no such payment yet (the normal state before it arrives);
 * - reversed: the payment arrived, then M-Pesa took it back (a statement's Reversal row).
 * A pure function: every way matching runs (an order arriving, a payment arriving, an import)
 * gives the same answer for the same records.
 */
export type PaymentStanding = {
  state: PaymentState;
  receivedAmount?: number;
  receivedAt?: string;
  payerName?: string;
  shortBy?: number;
  /** The payment was made before the event's badge sales opened: an old code passed off as new. */
  beforeSales?: boolean;
  /** The reversal's receipt and when M-Pesa took the payment back. */
  reversedBy?: string;
  reversedAt?: string;
};

export type MatchInput = {
  order: { amount: number; createdAt: string };
  payment: { amount: number; paidAt: string; payerName: string } | null;
  /**
   * Periods the imported statements state they cover, for every one of the site's numbers
   * (ISO UTC; `coveredForEveryNumber` in coverage.ts). Never taken from callbacks or payment rows.
   */
  covered: { from: string; to: string }[];
  /** When the sales this order belongs to opened (badge orders), if known. */
  salesOpenedAt?: string | null;
  /** M-Pesa took the payment back: the reversal's receipt and when (a statement's Reversal row). */
  reversed?: { by: string; at: string } | null;
};

const DAY_MS = 86_400_000;
/** The payment is made before the order (the code is typed after paying): up to a week before counts. */
const PAID_WITHIN_MS = 7 * DAY_MS;

export function decidePaymentState({ order, payment, covered, salesOpenedAt, reversed }: MatchInput): PaymentStanding {
  if (payment) {
    const beforeSales = !!salesOpenedAt && Date.parse(payment.paidAt) < Date.parse(salesOpenedAt);
    const base = {
      receivedAmount: payment.amount,
      receivedAt: payment.paidAt,
      payerName: payment.payerName,
      ...(beforeSales ? { beforeSales } : {}),
    };
    if (reversed) return { state: "reversed", ...base, reversedBy: reversed.by, reversedAt: reversed.at };
    if (payment.amount >= order.amount) return { state: "verified", ...base };
    return { state: "short", ...base, shortBy: order.amount - payment.amount };
  }
  const placed = Date.parse(order.createdAt);
  const statementSaysNo = covered.some((c) => Date.parse(c.from) <= placed - PAID_WITHIN_MS && Date.parse(c.to) >= placed + DAY_MS);
  return { state: statementSaysNo ? "not_found" : "unmatched" };
}

export function paymentView(p: PaymentStanding | undefined): PaymentView {
  return {
    state: p?.state ?? "unmatched",
    receivedAmount: p?.receivedAmount ?? null,
    receivedAt: p?.receivedAt ?? null,
    payerName: p?.payerName ?? null,
    ...(p?.beforeSales ? { beforeSales: true as const } : {}),
    ...(p?.state === "reversed" && p.reversedBy && p.reversedAt ? { reversedBy: p.reversedBy, reversedAt: p.reversedAt } : {}),
  };
}

/**
 * A staff list narrowed to one payment state, and (`verifiedFirst`) pending orders whose payment
 * is verified moved to the top, the list's order kept otherwise.
 */
export function arrangeByPayment<T extends { status: string; payment?: PaymentView }>(
  items: T[],
  opts: { payment?: PaymentState; verifiedFirst?: boolean },
): T[] {
  const kept = opts.payment ? items.filter((i) => i.payment?.state === opts.payment) : items;
  if (!opts.verifiedFirst) return kept;
  const first = (i: T) => (i.status === "pending" && i.payment?.state === "verified" ? 0 : 1);
  return kept.map((item, at) => ({ item, at })).sort((a, b) => first(a.item) - first(b.item) || a.at - b.at).map((x) => x.item);
}
