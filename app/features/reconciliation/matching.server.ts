import { sql } from "kysely";
import type { Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { getEvent } from "../event-badges/event.server";
import { salesOpenInstant } from "../event-badges/event";
import type { PaymentView } from "../received-payments/payment-state";
import { coveredForEveryNumber } from "./coverage";
import { decidePaymentState, paymentView, type PaymentStanding } from "./matching";
import type { PaymentMismatch, ReversedApproval } from "./payments-screen";

/**
 * Matching as it runs on the records: the orders' codes looked up in the received payments
 * (with any reversal), with what the imported statements of the site's numbers state they cover
 * and when badge sales opened (the event record), decided by `decidePaymentState`.
 */

export type OrderToMatch = { code: string; amount: number; createdAt: string; kind: "badge" | "merch" };

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
 * Where the payments of these orders stand, keyed by payment code: one read of the ledger for
 * a whole staff list. Every way matching runs (an order arriving, a payment arriving, an
 * import, a list) comes here, so each gives the same answer.
 */
export async function paymentStatesFor(db: Db, orders: OrderToMatch[]): Promise<Map<string, PaymentStanding>> {
  const out = new Map<string, PaymentStanding>();
  if (orders.length === 0) return out;
  const codes = [...new Set(orders.map((o) => o.code.toUpperCase()))];
  const found = new Map<string, { amount: number; paidAt: string; payerName: string }>();
  const reversals = new Map<string, { by: string; at: string }>();
  for (let i = 0; i < codes.length; i += 500) {
    const rows = await db
      .selectFrom("received_payments")
      .select(["code", "amount", "paid_at", "payer_name", "reversed_at", "reversed_by"])
      .where("code", "in", codes.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      found.set(r.code, { amount: r.amount, paidAt: r.paid_at, payerName: r.payer_name });
      if (r.reversed_at && r.reversed_by) reversals.set(r.code, { by: r.reversed_by, at: r.reversed_at });
    }
  }
  const context = await matchContext(db);
  // The event record's sales opening date; EVENT_SALES_OPEN where staff have not set one.
  const salesOpenedAt = orders.some((o) => o.kind === "badge") ? (salesOpenInstant(await getEvent(db)) ?? env().eventSalesOpen) : null;
  for (const o of orders) {
    const code = o.code.toUpperCase();
    out.set(
      code,
      decidePaymentState({
        order: { amount: o.amount, createdAt: o.createdAt },
        payment: found.get(code) ?? null,
        ...context,
        salesOpenedAt: o.kind === "badge" ? salesOpenedAt : null,
        reversed: reversals.get(code) ?? null,
      }),
    );
  }
  return out;
}

/** Where the payment of one order stands. */
export async function paymentStateFor(db: Db, order: OrderToMatch): Promise<PaymentStanding> {
  const states = await paymentStatesFor(db, [order]);
  return states.get(order.code.toUpperCase())!;
}

/** Orders with their payment (the admin lists and staff screens), from one read of the ledger. */
export async function withPayments<T extends { paymentReference: string }>(
  db: Db,
  kind: "badge" | "merch",
  items: T[],
  facts: (item: T) => { amount: number; createdAt: string },
): Promise<(T & { payment: PaymentView })[]> {
  const states = await paymentStatesFor(
    db,
    items.map((i) => ({ code: i.paymentReference, kind, ...facts(i) })),
  );
  return items.map((i) => ({ ...i, payment: paymentView(states.get(i.paymentReference.toUpperCase())) }));
}

/**
 * Pending orders whose payment M-Pesa does not show in full: short, no such payment, reversed,
 * or paid before sales opened. The staff screen lists them for a look before anyone approves.
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
  const states = await paymentStatesFor(db, orders.map((o) => ({ code: o.code, amount: o.amount, createdAt: o.createdAt, kind: o.kind })));
  return orders
    .map((o) => ({ ...o, payment: paymentView(states.get(o.code.toUpperCase())) }))
    .filter((o) => o.payment.state === "short" || o.payment.state === "not_found" || o.payment.state === "reversed" || o.payment.beforeSales);
}

/**
 * Approved orders whose payment M-Pesa then reversed: the money went back after the kit or the
 * goods were promised. First on the staff payments screen.
 */
export async function listApprovedThenReversed(db: Db, limit = 200): Promise<ReversedApproval[]> {
  const rows = await db
    .selectFrom("badge_orders as o")
    .innerJoin("received_payments as p", "p.code", "o.payment_reference")
    .select([sql<"badge" | "merch">`'badge'`.as("kind"), "o.id", "o.name", "o.payment_reference as code", "o.amount", "p.amount as received", "p.reversed_at as reversedAt", "p.reversed_by as reversedBy"])
    .where("o.status", "=", "approved")
    .where("p.reversed_at", "is not", null)
    .unionAll(
      db
        .selectFrom("merch_orders as o")
        .innerJoin("received_payments as p", "p.code", "o.payment_reference")
        .select([sql<"badge" | "merch">`'merch'`.as("kind"), "o.id", "o.customer_name as name", "o.payment_reference as code", "o.total as amount", "p.amount as received", "p.reversed_at as reversedAt", "p.reversed_by as reversedBy"])
        .where("o.status", "=", "approved")
        .where("p.reversed_at", "is not", null),
    )
    .orderBy("reversedAt", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, reversedAt: r.reversedAt!, reversedBy: r.reversedBy! }));
}
