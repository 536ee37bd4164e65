import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { orderPagePath } from "~/features/orders/order-page";
import { OrderReplay, replayCodelessOrder } from "../payment-codes/order-replay.server";
import type { PricedLine } from "./merch";

type Line = { itemId: string; color: string | { label: string } | null; size: string | null; quantity: number };

/** A bag's lines as a comparable list: item, colour, size and quantity, in one order. */
const linesKey = (lines: Line[]) =>
  lines
    .map((l) => JSON.stringify([l.itemId, (typeof l.color === "string" ? l.color : l.color?.label) ?? null, l.size ?? null, l.quantity]))
    .sort()
    .join("\n");

/**
 * The stored order holding a code is this one sent again: the same email (any case) and the
 * same lines and quantities. `lines` null: the bag it came from is empty (its order took it),
 * so the email alone says it.
 */
export async function isSameMerchOrder(db: Db, storedId: string, order: { email: string; lines: PricedLine[] | null }) {
  const row = await db.selectFrom("merch_orders").select(["customer_email", "items"]).where("id", "=", storedId).executeTakeFirst();
  if (!row || row.customer_email.toLowerCase() !== order.email.toLowerCase()) return false;
  return order.lines === null || linesKey(JSON.parse(row.items) as PricedLine[]) === linesKey(order.lines);
}

/** The answer the first submission got (reference, total, order page), marked as a replay. */
export async function replayedMerchOrder(db: Db, id: string) {
  const row = await db.selectFrom("merch_orders").select(["id", "total", "currency", "view_token"]).where("id", "=", id).executeTakeFirst();
  if (!row) throw new DomainError("not_found", "Order not found.");
  return { id: row.id, total: row.total, currency: row.currency, orderPath: orderPagePath(row.id, row.view_token), replayed: true as const };
}

/**
 * A checkout from an empty bag whose code already placed this person's merch order: that
 * order (the first checkout emptied the bag, and its answer was lost), or null.
 */
export async function orderFromEmptiedBag(db: Db, order: { code: string; email: string }) {
  const held = await db.selectFrom("payment_codes").select("order_id").where("code", "=", order.code).where("kind", "=", "merch").executeTakeFirst();
  if (!held || !(await isSameMerchOrder(db, held.order_id, { email: order.email, lines: null }))) return null;
  return replayedMerchOrder(db, held.order_id);
}

/**
 * A 'Pay now' checkout from an empty bag: the order paid by prompt this email and phone placed
 * in the last minutes (the first checkout emptied the bag), or null.
 */
export async function promptOrderFromEmptiedBag(db: Db, order: { customerEmail: string; customerPhone: string }) {
  try {
    await db.transaction().execute((trx) =>
      replayCodelessOrder(trx, { kind: "merch", email: order.customerEmail, phone: order.customerPhone, isSameOrder: async () => true }),
    );
  } catch (e) {
    if (e instanceof OrderReplay) return replayedMerchOrder(db, e.orderId);
    throw e;
  }
  return null;
}
