import type { Actor } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import type { BadgeOrderStatus } from "../event-badges/badge-order.schema";
import type { BadgeOrderView } from "../event-badges/badge-order";
import * as badgeOrders from "../event-badges/badge-orders.server";
import type { MerchOrderStatus, MerchOrderView } from "../merch/merch";
import * as merchOrders from "../merch/merch.server";
import { changeMerchOrderStatus as changeMerchStatus } from "../merch/admin/merch-admin.server";
import { needsPaymentCheck, paymentCheckMessage, type PaymentState, type PaymentView } from "../received-payments/payment-state";
import type { OrderKind } from "../orders/order-kinds";
import { arrangeByPayment } from "./matching";
import { withPayments } from "./matching.server";

/**
 * The orders as staff (their screens and the JSON API) read and decide them: each order with
 * where its payment stands. The badge and merch features know nothing of payments; these call
 * them and add the payment, and hold an approval back, when M-Pesa does not show the payment in
 * full, until staff tick that they checked it (`paymentChecked`).
 */

type Paid<T> = T & { payment: PaymentView };
type ListOptions = { payment?: PaymentState; verifiedFirst?: boolean };

const badgeFacts = (o: BadgeOrderView) => ({ amount: o.amount, createdAt: o.createdAt });
const merchFacts = (o: MerchOrderView) => ({ amount: o.total, createdAt: o.ts });

const withBadgePayment = async (db: Db, order: BadgeOrderView) => (await withPayments(db, "badge", [order], badgeFacts))[0]!;
const withMerchPayment = async (db: Db, order: MerchOrderView) => (await withPayments(db, "merch", [order], merchFacts))[0]!;

/** The check an approval passes first: a payment M-Pesa does not show in full needs staff's tick. */
const paymentCheck =
  <T extends { id: string; paymentReference: string }>(kind: "badge" | "merch", facts: (o: T) => { amount: number; createdAt: string }, paymentChecked?: boolean) =>
  async (db: Db, order: T) => {
    if (paymentChecked) return;
    const { payment } = (await withPayments(db, kind, [order], facts))[0]!;
    if (needsPaymentCheck(payment)) {
      throw new DomainError("conflict", paymentCheckMessage(payment, order.paymentReference, facts(order).amount), "paymentChecked");
    }
  };

// ---------------------------------------------------------------- badge orders

/** One badge order, with where its payment stands. */
export async function getBadgeOrder(db: Db, id: string): Promise<Paid<BadgeOrderView>> {
  return withBadgePayment(db, await badgeOrders.getBadgeOrder(db, id));
}

/** The staff list of badge orders, each with its payment; `payment` narrows it, `verifiedFirst` puts pending verified ones on top. */
export async function listBadgeOrders(
  db: Db,
  opts: { status?: BadgeOrderStatus; q?: string; limit?: number } & ListOptions,
): Promise<Paid<BadgeOrderView>[]> {
  return arrangeByPayment(await withPayments(db, "badge", await badgeOrders.listBadgeOrders(db, opts), badgeFacts), opts);
}

/** Approve or reject a badge order; approving one whose payment M-Pesa does not show in full takes `paymentChecked`. */
export async function setBadgeOrderStatus(
  db: Db,
  id: string,
  status: "approved" | "rejected",
  actor: Actor,
  /** `drawKit`: a missing badge and poster are drawn first (the staff screen's one-step approval). */
  opts: { note?: string; paymentChecked?: boolean; drawKit?: boolean } = {},
): Promise<Paid<BadgeOrderView>> {
  const beforeApprove = paymentCheck("badge", badgeFacts, opts.paymentChecked);
  return withBadgePayment(db, await badgeOrders.setBadgeOrderStatus(db, id, status, actor, { note: opts.note, beforeApprove, drawKit: opts.drawKit }));
}

export async function attachBadgeAssets(db: Db, id: string, images: { badge: Buffer; poster: Buffer }, actor: Actor) {
  return withBadgePayment(db, await badgeOrders.attachBadgeAssets(db, id, images, actor));
}

export async function generateBadgeAssets(db: Db, id: string, actor: Actor) {
  return withBadgePayment(db, await badgeOrders.generateBadgeAssets(db, id, actor));
}

export async function resendBadgeKit(db: Db, id: string, actor: Actor) {
  return withBadgePayment(db, await badgeOrders.resendBadgeKit(db, id, actor));
}

// ---------------------------------------------------------------- either kind

/** One order of either kind as its own staff screen and JSON show it, with where its payment stands. */
export async function getOrderWithPayment(db: Db, kind: OrderKind, id: string): Promise<Paid<BadgeOrderView> | Paid<MerchOrderView> | null> {
  return PAID_ORDER[kind](db, id);
}

const PAID_ORDER: Record<OrderKind, (db: Db, id: string) => Promise<Paid<BadgeOrderView> | Paid<MerchOrderView> | null>> = {
  badge: (db, id) => getBadgeOrder(db, id),
  merch: (db, id) => getMerchOrder(db, id),
};

// ---------------------------------------------------------------- merch orders

/** One merch order, with where its payment stands, or null. */
export async function getMerchOrder(db: Db, id: string): Promise<Paid<MerchOrderView> | null> {
  const order = await merchOrders.getMerchOrder(db, id);
  return order ? withMerchPayment(db, order) : null;
}

/** The staff list of merch orders (search `q`), each with its payment; narrowed and arranged as the badge list. */
export async function listMerchOrders(db: Db, q?: string, opts: ListOptions = {}): Promise<Paid<MerchOrderView>[]> {
  return arrangeByPayment(await withPayments(db, "merch", await merchOrders.listMerchOrders(db, q), merchFacts), opts);
}

/** Staff set a merch order's status; approving one whose payment M-Pesa does not show in full takes `paymentChecked`. */
export async function changeMerchOrderStatus(
  db: Db,
  change: { id: string; status: MerchOrderStatus; notes?: string; onlyFrom?: MerchOrderStatus; paymentChecked?: boolean },
  actor: Actor,
): Promise<Paid<MerchOrderView>> {
  const { paymentChecked, ...rest } = change;
  const order = await changeMerchStatus(db, { ...rest, beforeApprove: paymentCheck("merch", merchFacts, paymentChecked) }, actor);
  return withMerchPayment(db, order);
}
