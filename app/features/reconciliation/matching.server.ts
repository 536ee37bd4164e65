import { sql } from "kysely";
import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { ORDER_KINDS } from "~/features/orders/order-kinds";
import { getEvent } from "../event-badges/event.server";
import { salesOpenInstant } from "../event-badges/event";
import type { PaymentView } from "../received-payments/payment-state";
import { coveredForEveryNumber } from "./coverage";
import { decidePaymentState, paymentView, type PaymentStanding } from "./matching";
import type { PaymentMismatch, ReversedApproval } from "./payments-screen";
import { ordersNear, receiptsOf, suggestionsFor } from "./receipts.server";
import type { StkView } from "../stk-push/stk-push";
import { latestStkOf } from "../stk-push/stk-push.server";

/**
 * Matching as it runs on the records: the receipts the ledger gives each order (its typed
 * code's, and those linked by account number or by staff, each with any reversal), with what
 * the imported statements of the site's numbers state they cover and when badge sales opened
 * (the event record), decided by `decidePaymentState`.
 */

/** An order to match: its id (the ledger's links are by order), its typed code, amount and time. Without an id only its code matches. */
export type OrderToMatch = { code: string; amount: number; createdAt: string; kind: "badge" | "merch"; id?: string };

/**
 * What every match reads besides the payment itself: the periods imported statements of the
 * site's numbers state they cover. Callbacks never count (one lost callback must not make an
 * honest payer a suspect), nor do imports whose coverage came from their payment rows.
 */
async function matchContext(db: Db) {
  const numbers = env().mpesaShortcodes;
  const stated = await db
    .selectFrom("mpesa_imports")
    .select(["covers_from", "covers_to", "shortcode"])
    .where("period_source", "in", ["time_period", "from_to"])
    .where("shortcode", "in", numbers)
    .where("covers_from", "is not", null)
    .where("covers_to", "is not", null)
    .execute();
  return { covered: coveredForEveryNumber(stated.map((c) => ({ from: c.covers_from!, to: c.covers_to!, shortcode: c.shortcode })), numbers) };
}

/**
 * Where the payments of these orders stand, in the order given: one read of the ledger (the
 * receipts each order holds) for a whole staff list. Every way matching runs (an order
 * arriving, a payment arriving, an import, a list) comes here, so each gives the same answer.
 */
export async function paymentStatesFor(db: Db, orders: OrderToMatch[]): Promise<PaymentStanding[]> {
  return (await standingsFor(db, orders)).map((s) => s.standing);
}

async function standingsFor(db: Db, orders: OrderToMatch[]) {
  if (orders.length === 0) return [];
  const held = await receiptsOf(db, orders);
  const context = await matchContext(db);
  // The event record's sales opening date; EVENT_SALES_OPEN where staff have not set one.
  const salesOpenedAt = orders.some((o) => ORDER_KINDS[o.kind].sellsFromSalesOpening) ? (salesOpenInstant(await getEvent(db)) ?? env().eventSalesOpen) : null;
  return orders.map((o, i) => ({
    standing: decidePaymentState({
      order: { amount: o.amount, createdAt: o.createdAt },
      receipts: held[i]!.receipts,
      ...context,
      salesOpenedAt: ORDER_KINDS[o.kind].sellsFromSalesOpening ? salesOpenedAt : null,
    }),
    codeWrong: held[i]!.codeWrong,
  }));
}

/** Where the payment of one order stands. */
export async function paymentStateFor(db: Db, order: OrderToMatch): Promise<PaymentStanding> {
  return (await paymentStatesFor(db, [order]))[0]!;
}

/**
 * The payments of these orders as staff and the JSON lists see them, in the order given: the
 * state and receipts, and for an order holding no receipt the unclaimed payments that are
 * probably its own (offered, never counted).
 */
export async function paymentViewsFor(db: Db, orders: (OrderToMatch & { id: string })[]): Promise<PaymentView[]> {
  const standings = await standingsFor(db, orders);
  const lonely = orders.flatMap((o, i) => (standings[i]!.standing.receipts.length === 0 ? [{ ...o, at: i }] : []));
  const suggested = await suggestionsFor(db, lonely);
  const suggestionsAt = new Map(lonely.map((o, n) => [o.at, suggested[n]!]));
  return orders.map((_, i) => paymentView(standings[i]!.standing, { suggestions: suggestionsAt.get(i), codeWrong: standings[i]!.codeWrong }));
}

/** Orders with their payment (the admin lists and staff screens), from one read of the ledger. */
export async function withPayments<T extends { id: string; paymentReference: string }>(
  db: Db,
  kind: "badge" | "merch",
  items: T[],
  facts: (item: T) => { amount: number; createdAt: string },
): Promise<(T & { payment: PaymentView & { stk?: StkView } })[]> {
  const views = await paymentViewsFor(
    db,
    items.map((i) => ({ kind, id: i.id, code: i.paymentReference, ...facts(i) })),
  );
  // The order's M-Pesa prompt, when one was sent: its state, when, and M-Pesa's result.
  const prompts = await latestStkOf(db, items.map((i) => i.id));
  return items.map((i, n) => {
    const stk = prompts.get(i.id);
    return { ...i, payment: stk ? { ...views[n]!, stk } : views[n]! };
  });
}

/** Whether a payment needs a look before anyone approves: anything but verified or not seen yet, a flag, or a probable payment to link. */
export const paymentNeedsLook = (p: PaymentView) =>
  (p.state !== "verified" && p.state !== "unmatched") || !!p.beforeSales || !!p.suggestions?.length || !!p.codeWrong;

/**
 * Pending orders whose payment M-Pesa does not show in full: short, over, paid long before,
 * no such payment, reversed, a code marked wrong, or a probable payment waiting for staff to
 * link it. The staff screen lists them for a look before anyone approves.
 */
export async function listPaymentMismatches(db: Db, limit = 500): Promise<PaymentMismatch[]> {
  // Both kinds of order in one list: the same five facts under the same names.
  const orders = await db
    .selectFrom("badge_orders")
    .select([sql<"badge" | "merch">`'badge'`.as("kind"), "id", "name", "payment_reference as code", "amount", "created_at as createdAt"])
    .where("status", "=", "pending")
    .unionAll(
      db
        .selectFrom("merch_orders")
        .select([sql<"badge" | "merch">`'merch'`.as("kind"), "id", "customer_name as name", "payment_reference as code", "total as amount", "ts as createdAt"])
        .where("status", "=", "pending"),
    )
    .orderBy("createdAt", "desc")
    .limit(limit)
    .execute();
  const views = await paymentViewsFor(db, orders);
  return orders.map((o, i) => ({ ...o, payment: views[i]! })).filter((o) => paymentNeedsLook(o.payment));
}

/**
 * For unclaimed payments (the payments screen's list): the orders each is probably for, by
 * the same rule that offers it on the order's row.
 */
export async function likelyOrdersFor(db: Db, payments: { code: string; amount: number; paidAt: string }[]): Promise<Map<string, { kind: "badge" | "merch"; id: string }[]>> {
  const out = new Map<string, { kind: "badge" | "merch"; id: string }[]>();
  if (payments.length === 0) return out;
  const times = payments.map((p) => p.paidAt).sort();
  const orders = await ordersNear(db, times[0]!, times.at(-1)!, [...new Set(payments.map((p) => p.amount))]);
  const views = await paymentViewsFor(db, orders);
  const wanted = new Set(payments.map((p) => p.code));
  orders.forEach((o, i) => {
    for (const s of views[i]!.suggestions ?? []) {
      if (wanted.has(s.transId)) out.set(s.transId, [...(out.get(s.transId) ?? []), { kind: o.kind, id: o.id }]);
    }
  });
  return out;
}

/**
 * Approved orders whose payment M-Pesa then reversed: the money went back after the kit or the
 * goods were promised. First on the staff payments screen. Covers every receipt the order holds
 * (its typed code's and those linked by account number or by staff).
 */
export async function listApprovedThenReversed(db: Db, limit = 200): Promise<ReversedApproval[]> {
  const reversedCodes = db.selectFrom("received_payments").select("code").where("reversed_at", "is not", null);
  const linkedReversed = (kind: "badge" | "merch") =>
    db
      .selectFrom("order_receipts as r")
      .innerJoin("received_payments as p", "p.code", "r.trans_id")
      .select("r.order_id")
      .where("r.kind", "=", kind)
      .where("p.reversed_at", "is not", null);
  const orders = await db
    .selectFrom("badge_orders as o")
    .select([sql<"badge" | "merch">`'badge'`.as("kind"), "o.id", "o.name", "o.payment_reference as code", "o.amount", "o.created_at as createdAt"])
    .where("o.status", "=", "approved")
    .where((eb) => eb.or([eb("o.payment_reference", "in", reversedCodes), eb("o.id", "in", linkedReversed("badge"))]))
    .unionAll(
      db
        .selectFrom("merch_orders as o")
        .select([sql<"badge" | "merch">`'merch'`.as("kind"), "o.id", "o.customer_name as name", "o.payment_reference as code", "o.total as amount", "o.ts as createdAt"])
        .where("o.status", "=", "approved")
        .where((eb) => eb.or([eb("o.payment_reference", "in", reversedCodes), eb("o.id", "in", linkedReversed("merch"))])),
    )
    .execute();
  // The ledger decides which receipts the order holds (a typed code unlinked by staff does not count).
  const standings = await paymentStatesFor(db, orders);
  return orders
    .flatMap((o, i) => {
      const p = standings[i]!;
      if (p.state !== "reversed" || !p.reversedAt || !p.reversedBy) return [];
      return [{ kind: o.kind, id: o.id, name: o.name, code: o.code, amount: o.amount, received: p.receivedAmount ?? 0, reversedAt: p.reversedAt, reversedBy: p.reversedBy }];
    })
    .sort((a, b) => b.reversedAt.localeCompare(a.reversedAt))
    .slice(0, limit);
}
