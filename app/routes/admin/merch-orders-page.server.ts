import { data, type AppLoadContext } from "react-router";
import { withLastSeen } from "~/features/received-payments/payment-arrivals.server";
import { z } from "zod";
import { PAYMENT_STATES, type PaymentState } from "~/features/received-payments/payment-state";
import type { OrderRowResult } from "~/features/admin/order-row";
import { requireStaff } from "~/features/admin/staff-auth.server";
import type { Reply } from "~/lib/core/forms";
import { httpErrorOf } from "~/lib/http/http.server";
import { intentOf, parseSubmission, readForm, submissionOf, type Submission } from "~/lib/forms/submission.server";
import { MerchOrderStatusSchema } from "~/features/merch/merch.schema";
import type { MerchOrderView } from "~/features/merch/merch";
import { MERCH_ADMIN_MESSAGES as M, ORDERS_PATH, ordersHref, pendingQuestion, rejectQuestion, statusDone } from "~/features/merch/admin/merch-admin-screen";
import { confirmedBefore } from "~/features/merch/admin/merch-admin.server";
import { changeMerchOrderStatus, getMerchOrder, listMerchOrders } from "~/features/reconciliation/orders.server";
import { formatNairobiTimeEat } from "~/lib/core/nairobi-time";

/** The order as a card shows it after a change, with when its 'confirmed' email went if that was before this approval. */
type ChangedOrder = MerchOrderView & { confirmedBefore?: string | null };

/** The orders (newest first) matching ?q=, for signed-in staff. A failed read shows none. */
export async function loadMerchOrdersScreen(request: Request, url: URL, context: AppLoadContext) {
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

type R = OrderRowResult<ChangedOrder, "rejected" | "pending">;
const rowReply = (reply: Reply<R>, status: number) => data(reply, status);

/** The words of a refused or failed change: the screen's, with the refusal's reason when there is one. */
const failedWords = (reason: string | null) => (reason ? `${M.updateFailed}: ${reason}` : M.updateFailed);

/**
 * A card's buttons: intent status, id, status and the staff note. Answers with the order.
 * Rejecting (it emails the buyer) and un-approving or un-rejecting take a second, confirming
 * press. A known refusal (a 4xx) keeps its words and status; anything else is logged and
 * answered with the screen's words and a 500, still as data.
 */
export async function merchOrdersAction(request: Request, url: URL, context: AppLoadContext) {
  const actor = await requireStaff(request, context, `${ORDERS_PATH}${url.search}`);
  const none = { id: null, order: null };
  let submission: Submission;
  try {
    submission = submissionOf(await readForm(request, 8 * 1024));
  } catch (e) {
    const refused = httpErrorOf(e);
    if (!refused) throw e;
    return rowReply({ status: "error", message: failedWords(refused.message), result: none }, refused.status);
  }
  const intent = intentOf(submission);
  if (intent !== "status") return rowReply({ status: "error", message: failedWords("Unknown action."), result: none }, 400);
  const parsed = parseSubmission(submission, CardSchema, "fields");
  if (!parsed.ok) {
    return rowReply({ status: "error", message: failedWords(parsed.first ?? null), result: { id: text(submission.fields.id) || null, order: null } }, 400);
  }
  const { id, status, notes } = parsed.value;
  const db = context.db;
  if (submission.fields.confirmed !== "yes") {
    const current = await getMerchOrder(db, id).catch(() => null);
    // Rejecting asks first; so does un-approving (or un-rejecting): on a pending order there is nothing to undo.
    const ask = !current
      ? null
      : status === "rejected"
        ? current.status !== "rejected"
          ? { confirm: "rejected" as const, question: rejectQuestion(current) }
          : null
        : status === "pending" && current.status !== "pending"
          ? { confirm: "pending" as const, question: pendingQuestion(current) }
          : null;
    if (ask) {
      // What was typed comes back with the question (a reload would lose it).
      return rowReply({ status: "success", message: ask.question, values: { notes: notes ?? "" }, result: { id, order: current, confirm: ask.confirm } }, 200);
    }
  }
  let order: ChangedOrder;
  try {
    const changed = await changeMerchOrderStatus(db, { id, status, notes, paymentChecked: submission.fields.paymentChecked === "yes" }, actor);
    const before = await confirmedBefore(db, id);
    order = before ? { ...changed, confirmedBefore: before } : changed;
  } catch (e) {
    const refused = httpErrorOf(e);
    const known = refused !== null && refused.status < 500;
    if (!known) console.error(`[merch-orders] ${intent} failed`, e);
    return rowReply({ status: "error", message: failedWords(known ? refused.message : null), result: { id, order: null } }, known ? refused.status : 500);
  }
  const done = statusDone(id, status, order.confirmedBefore ? formatNairobiTimeEat(order.confirmedBefore) : null);
  return rowReply({ status: "success", message: done, result: { id, order } }, 200);
}
