import type { PaymentState, PaymentView } from "../received-payments/payment-state";

/**
 * Where an order's payment stands, decided from M-Pesa's own records (kept apart from the
 * order's review status, as shops keep payment and fulfilment apart):
 * - verified: a received payment has the order's code and at least the order's amount;
 * - short: the code was paid, but less (by `shortBy`);
 * - not_found: no such payment although the records cover the order's time and a day after
 *   (an imported statement, or callbacks live since before the order): the likely fake;
 * - unmatched: no such payment yet (the normal state before it arrives).
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
};

export type MatchInput = {
  order: { amount: number; createdAt: string };
  payment: { amount: number; paidAt: string; payerName: string } | null;
  /** Periods an imported statement covers (ISO UTC). */
  covered: { from: string; to: string }[];
  /** When the first callback payment was stored, if ever: callbacks are live from then on. */
  callbacksSince: string | null;
  /** When the sales this order belongs to opened (badge orders), if known. */
  salesOpenedAt?: string | null;
};

const DAY_MS = 86_400_000;

export function decidePaymentState({ order, payment, covered, callbacksSince, salesOpenedAt }: MatchInput): PaymentStanding {
  if (payment) {
    const beforeSales = !!salesOpenedAt && Date.parse(payment.paidAt) < Date.parse(salesOpenedAt);
    const base = {
      receivedAmount: payment.amount,
      receivedAt: payment.paidAt,
      payerName: payment.payerName,
      ...(beforeSales ? { beforeSales } : {}),
    };
    if (payment.amount >= order.amount) return { state: "verified", ...base };
    return { state: "short", ...base, shortBy: order.amount - payment.amount };
  }
  const placed = Date.parse(order.createdAt);
  const dayAfter = placed + DAY_MS;
  const statementSaysNo = covered.some((c) => Date.parse(c.from) <= placed && Date.parse(c.to) >= dayAfter);
  const callbacksSayNo = callbacksSince !== null && Date.parse(callbacksSince) <= placed && Date.now() >= dayAfter;
  return { state: statementSaysNo || callbacksSayNo ? "not_found" : "unmatched" };
}

export function paymentView(p: PaymentStanding | undefined): PaymentView {
  return {
    state: p?.state ?? "unmatched",
    receivedAmount: p?.receivedAmount ?? null,
    receivedAt: p?.receivedAt ?? null,
    payerName: p?.payerName ?? null,
    ...(p?.beforeSales ? { beforeSales: true as const } : {}),
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
