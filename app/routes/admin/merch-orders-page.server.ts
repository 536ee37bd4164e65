import type { AppLoadContext } from "react-router";
import { withLastSeen } from "~/features/received-payments/payment-arrivals.server";
import { z } from "zod";
import { PAYMENT_STATES, type PaymentState } from "~/features/received-payments/payment-state";
import { orderRowAction } from "~/features/admin/staff-flows.server";
import { MerchOrderStatusSchema } from "~/features/merch/merch.schema";
import type { MerchOrderView } from "~/features/merch/merch";
import { MERCH_ADMIN_MESSAGES as M, ORDERS_PATH, ordersHref, pendingQuestion, rejectQuestion, statusDone } from "~/features/merch/admin/merch-admin-screen";
import { confirmedBefore } from "~/features/merch/admin/merch-admin.server";
import { changeMerchOrderStatus, getMerchOrder, listMerchOrders } from "~/features/reconciliation/orders.server";
import { formatNairobiTimeEat } from "~/lib/nairobi-time";

/** The order as a card shows it after a change, with when its 'confirmed' email went if that was before this approval. */
type ChangedOrder = MerchOrderView & { confirmedBefore?: string | null };

/** The orders (newest first) matching ?q=, for signed-in staff. A failed read shows none. */
export async function loadMerchOrdersScreen(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const rawPayment = url.searchParams.get("payment") ?? "";
  const payment: PaymentState | "" = (PAYMENT_STATES as readonly string[]).includes(rawPayment) ? (rawPayment as PaymentState) : "";
  let orders: MerchOrderView[] = [];
  let loadError: string | null = null;
  try {
    orders = await withLastSeen(context.db, await listMerchOrders(context.db, q || undefined, { payment: payment || undefined, verifiedFirst: true }));
  } catch (e) {
    console.error("[merch-admin] listing orders failed", e);
    loadError = M.loadFailed;
  }
  return { q, payment, orders, loadError, actionPath: ordersHref(q, payment), loadedAt: Date.now() };
}

const text = (v: unknown) => (typeof v === "string" ? v : "");

/** A card's status form: the order id, the status and the staff note. */
const CardSchema = z.preprocess((f) => {
  const fields = f as Record<string, unknown>;
  return { id: text(fields.id), status: text(fields.status), notes: fields.notes };
}, MerchOrderStatusSchema);

/** A card's buttons: intent status, id, status and the staff note. Answers with the order. */
export function merchOrdersAction(request: Request, context: AppLoadContext) {
  return orderRowAction<z.output<typeof CardSchema>, ChangedOrder, "rejected" | "pending">(request, context, {
    name: "merch-orders",
    path: ORDERS_PATH,
    maxBytes: 8 * 1024,
    intents: ["status"],
    schema: CardSchema,
    idOf: (fields) => text(fields.id) || null,
    rejects: (_intent, { status }) => status === "rejected",
    confirm: "rejected",
    question: rejectQuestion,
    // Un-approving (or un-rejecting) asks first; on a pending order there is nothing to undo.
    asks: (_intent, { status }, current) =>
      status === "pending" && current.status !== "pending" ? { confirm: "pending", question: pendingQuestion(current) } : null,
    keep: ({ notes }) => ({ notes: notes ?? "" }),
    load: getMerchOrder,
    run: async (_intent, { id, status, notes }, { db, fields, actor }) => {
      const order = await changeMerchOrderStatus(db, { id, status, notes, paymentChecked: fields.paymentChecked === "yes" }, actor);
      const before = await confirmedBefore(db, id);
      return before ? { ...order, confirmedBefore: before } : order;
    },
    orderOnError: false,
    words: {
      failed: (reason) => (reason ? `${M.updateFailed}: ${reason}` : M.updateFailed),
      done: (_intent, { id, status }, order) => statusDone(id, status, order.confirmedBefore ? formatNairobiTimeEat(order.confirmedBefore) : null),
    },
  });
}
