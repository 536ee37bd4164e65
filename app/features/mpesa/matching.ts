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
export type PaymentState = "verified" | "short" | "unmatched" | "not_found";

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

/** An order's payment as the admin JSON lists and staff screens carry it. */
export type PaymentView = {
  state: PaymentState;
  receivedAmount: number | null;
  receivedAt: string | null;
  payerName: string | null;
  /** Present (true) only when the payment was made before the event's sales opened. */
  beforeSales?: true;
};

export function paymentView(p: PaymentStanding | undefined): PaymentView {
  return {
    state: p?.state ?? "unmatched",
    receivedAmount: p?.receivedAmount ?? null,
    receivedAt: p?.receivedAt ?? null,
    payerName: p?.payerName ?? null,
    ...(p?.beforeSales ? { beforeSales: true as const } : {}),
  };
}

export const PAYMENT_STATES: readonly PaymentState[] = ["verified", "short", "unmatched", "not_found"];

/** Staff words for each state (beside the code on the order screens). */
export const PAYMENT_STATE_LABEL: Record<PaymentState, string> = {
  verified: "Payment verified",
  short: "Paid short",
  unmatched: "Payment not seen yet",
  not_found: "No such payment",
};

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
