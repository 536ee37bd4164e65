import { EARLY_DAYS, type MatchedBy, type PaymentState, type PaymentView, type SuggestedReceipt } from "../received-payments/payment-state";

/**
 * Where an order's payment stands, decided from M-Pesa's own records (kept apart from the
 * order's review status, as shops keep payment and fulfilment apart). An order holds the
 * receipts the ledger gives it (its typed code's, and any linked by account number or by
 * staff); what it received is their sum:
 * - verified: exactly the order's amount;
 * - short: less (by `shortBy`): a second payment (a top-up) can complete it;
 * - over: more (by `overBy`): not 'in full', staff look at the difference;
 * - early: a receipt paid more than 7 days before the order, or before badge sales opened;
 * - reversed: a receipt arrived, then M-Pesa took it back (a statement's Reversal row);
 * - not_found: no receipt although imported statements of the site's numbers state a
 *   period covering the week before the order and the day after: the likely fake. Callbacks
 *   alone never say so (one lost or refused callback must not make a payer a suspect);
 * - unmatched: no receipt yet (the normal state before it arrives).
 * A pure function: every way matching runs (an order arriving, a payment arriving, an import)
 * gives the same answer for the same records.
 */

/** A receipt an order holds, and which rule gave it to the order. */
export type ReceiptFact = {
  transId: string;
  amount: number;
  paidAt: string;
  payerName: string;
  matchedBy: MatchedBy;
  /** M-Pesa took this receipt back: the reversal's receipt and when (a statement's Reversal row). */
  reversed?: { by: string; at: string } | null;
};

export type PaymentStanding = {
  state: PaymentState;
  /** Oldest first. */
  receipts: ReceiptFact[];
  receivedAmount?: number;
  receivedAt?: string;
  payerName?: string;
  shortBy?: number;
  overBy?: number;
  /** A receipt was paid before the event's badge sales opened: an old code passed off as new. */
  beforeSales?: boolean;
  /** The reversal's receipt and when M-Pesa took the payment back. */
  reversedBy?: string;
  reversedAt?: string;
};

export type MatchInput = {
  order: { amount: number; createdAt: string };
  /** The receipts the order holds (none: the state says whether that is news). */
  receipts: ReceiptFact[];
  /**
   * Periods the imported statements state they cover, for every one of the site's numbers
   * (ISO UTC; `coveredForEveryNumber` in coverage.ts). Never taken from callbacks or payment rows.
   */
  covered: { from: string; to: string }[];
  /** When the sales this order belongs to opened (badge orders), if known. */
  salesOpenedAt?: string | null;
};

const DAY_MS = 86_400_000;
const EARLY_MS = EARLY_DAYS * DAY_MS;
/** The payment is made before the order (the code is typed after paying): up to a week before counts. */
const PAID_WITHIN_MS = 7 * DAY_MS;

export function decidePaymentState({ order, receipts, covered, salesOpenedAt }: MatchInput): PaymentStanding {
  if (receipts.length > 0) return receivedState(order, receipts, salesOpenedAt ?? null);
  const placed = Date.parse(order.createdAt);
  const statementSaysNo = covered.some((c) => Date.parse(c.from) <= placed - PAID_WITHIN_MS && Date.parse(c.to) >= placed + DAY_MS);
  return { state: statementSaysNo ? "not_found" : "unmatched", receipts: [] };
}

/** What the receipts an order holds say, counted together. */
function receivedState(order: MatchInput["order"], unsorted: ReceiptFact[], salesOpenedAt: string | null): PaymentStanding {
  const receipts = [...unsorted].sort((a, b) => a.paidAt.localeCompare(b.paidAt) || a.transId.localeCompare(b.transId));
  const received = receipts.reduce((sum, r) => sum + r.amount, 0);
  const beforeSales = !!salesOpenedAt && receipts.some((r) => Date.parse(r.paidAt) < Date.parse(salesOpenedAt));
  const early = beforeSales || receipts.some((r) => Date.parse(r.paidAt) < Date.parse(order.createdAt) - EARLY_MS);
  const base = {
    receipts,
    receivedAmount: received,
    receivedAt: receipts.at(-1)!.paidAt,
    payerName: receipts[0]!.payerName,
    ...(received < order.amount ? { shortBy: order.amount - received } : {}),
    ...(received > order.amount ? { overBy: received - order.amount } : {}),
    ...(beforeSales ? { beforeSales } : {}),
  };
  // A reversed receipt (a statement's 'Reversal' row) is decided here, before the rest.
  const reversed = receipts.find((r) => r.reversed)?.reversed;
  if (reversed) return { state: "reversed", ...base, reversedBy: reversed.by, reversedAt: reversed.at };
  if (early) return { state: "early", ...base };
  if (received > order.amount) return { state: "over", ...base };
  if (received === order.amount) return { state: "verified", ...base };
  return { state: "short", ...base };
}

/** The payment as staff screens and the JSON lists carry it (`extra`: what the ledger adds beside the state). */
export function paymentView(p: PaymentStanding | undefined, extra: { suggestions?: SuggestedReceipt[]; codeWrong?: boolean } = {}): PaymentView {
  return {
    state: p?.state ?? "unmatched",
    receivedAmount: p?.receivedAmount ?? null,
    receivedAt: p?.receivedAt ?? null,
    payerName: p?.payerName ?? null,
    receipts: (p?.receipts ?? []).map((r) => ({ transId: r.transId, amount: r.amount, at: r.paidAt, payerName: r.payerName, matchedBy: r.matchedBy })),
    ...(p?.beforeSales ? { beforeSales: true as const } : {}),
    ...(p?.state === "reversed" && p.reversedBy && p.reversedAt ? { reversedBy: p.reversedBy, reversedAt: p.reversedAt } : {}),
    ...(extra.suggestions?.length ? { suggestions: extra.suggestions } : {}),
    ...(extra.codeWrong ? { codeWrong: true as const } : {}),
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
