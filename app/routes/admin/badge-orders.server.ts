import { data, type AppLoadContext } from "react-router";
import { requireAdminSession } from "~/lib/admin.server";
import type { Db } from "~/lib/db.server";
import type { Reply } from "~/lib/forms";
import { readForm } from "~/lib/submission.server";
import { staff, type Actor } from "~/lib/actor";
import { clientAddress, httpErrorOf } from "~/lib/http.server";
import { ListQuerySchema, OrderIdSchema, StaffNoteSchema } from "~/features/event-badges/badge-order.schema";
import {
  generateBadgeAssets,
  getBadgeOrder,
  listBadgeOrders,
  resendBadgeKit,
  setBadgeOrderStatus,
} from "~/features/reconciliation/orders.server";
import type { BadgeOrderView } from "~/features/event-badges/badge-order";
import { setWallHidden } from "~/features/event-badges/wall.server";
import { revokeSupporterBadge } from "~/features/open-badges/open-badges.server";
import { PAYMENT_STATES, type PaymentState } from "~/features/received-payments/payment-state";
import {
  DEFAULT_STATUS,
  ORDER_INTENTS,
  SCREEN_PATH,
  rejectQuestion,
  screenHref,
  type ListFilter,
  type OrderActionResult,
  type OrderIntent,
} from "~/features/event-badges/admin/badge-orders-screen";

/** Reads ?status=&q=; a bad value falls back to the default and says why. */
function readFilter(params: URLSearchParams): { filter: ListFilter; error: string | null } {
  const rawStatus = params.get("status") || DEFAULT_STATUS;
  const rawQ = params.get("q") ?? "";
  const rawPayment = params.get("payment") ?? "";
  const payment: PaymentState | "" = (PAYMENT_STATES as readonly string[]).includes(rawPayment) ? (rawPayment as PaymentState) : "";
  const parsed = ListQuerySchema.safeParse({
    status: rawStatus === "all" ? undefined : rawStatus,
    q: rawQ,
  });
  if (parsed.success) {
    const error = rawPayment && !payment ? "Unknown payment state: showing every payment state." : null;
    return { filter: { status: parsed.data.status ?? "all", q: parsed.data.q ?? "", payment }, error };
  }
  const issue = parsed.error.issues[0];
  const badStatus = issue?.path[0] === "status";
  return {
    filter: {
      status: badStatus ? DEFAULT_STATUS : rawStatus === "all" ? "all" : (rawStatus as ListFilter["status"]),
      q: badStatus ? rawQ.trim().slice(0, 100) : "",
      payment,
    },
    error: issue?.message ?? "That filter could not be read.",
  };
}

/** The data of /admin/badge-orders (for signed-in staff): the list as filtered by ?status=&q=. */
export async function loadBadgeOrdersScreen(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  const { filter, error } = readFilter(url.searchParams);
  const orders = await listBadgeOrders(context.db, {
    status: filter.status === "all" ? undefined : filter.status,
    q: filter.q || undefined,
    payment: filter.payment || undefined,
    verifiedFirst: true,
  });
  return { filter, filterError: error, orders, actionPath: screenHref(filter), loadedAt: Date.now() };
}

type Handler = (db: Db, id: string, actor: Actor, extra: { note: string; paymentChecked: boolean; reason: string }) => Promise<BadgeOrderView>;

/** Each row action: the domain function (which writes the activity log) and the words staff see. */
const handlers: Record<OrderIntent, { run: Handler; done: string }> = {
  generate: { run: generateBadgeAssets, done: "Badge and poster attached to order." },
  "wall-hide": { run: (db, id, actor) => setWallHidden(db, id, true, actor).then(() => getBadgeOrder(db, id)), done: "Hidden from the supporter wall." },
  "wall-show": { run: (db, id, actor) => setWallHidden(db, id, false, actor).then(() => getBadgeOrder(db, id)), done: "Shown on the supporter wall again." },
  approve: {
    run: (db, id, actor, { paymentChecked }) => setBadgeOrderStatus(db, id, "approved", actor, { paymentChecked }),
    done: "Order approved and email triggered.",
  },
  reject: { run: (db, id, actor, { note }) => setBadgeOrderStatus(db, id, "rejected", actor, { note }), done: "Order rejected." },
  resend: { run: resendBadgeKit, done: "Badge kit email queued again." },
  "revoke-badge": {
    run: (db, id, actor, { reason }) => revokeSupporterBadge(db, id, reason, actor).then(() => getBadgeOrder(db, id)),
    done: "Badge revoked: its verification page and assertion now say so.",
  },
};

const reply = (body: Reply<OrderActionResult>, status: number) => data(body, status);

/**
 * The row actions of /admin/badge-orders (intent generate, approve, reject or resend, with the
 * order id). Known refusals come back as the spec's message with their 4xx status, and the
 * order as it now stands so its row catches up. An unexpected failure (the renderer, the disk)
 * is logged and answered with the spec's generic words and a 500, still as data: the screen
 * stays usable rather than turning into an error page.
 */
export async function badgeOrdersAdminAction(request: Request, context: AppLoadContext) {
  const url = new URL(request.url);
  let form: FormData;
  try {
    // Signed out: a redirect to the sign-in form (thrown through). Another site's page: a 403.
    await requireAdminSession(request, `${SCREEN_PATH}${url.search}`);
    form = await readForm(request, 4096);
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) return reply({ status: "error", message: http.message, result: { id: null, order: null } }, http.status);
    throw e;
  }
  const intent = String(form.get("intent") ?? "") as OrderIntent;
  if (!ORDER_INTENTS.includes(intent)) {
    return reply({ status: "error", message: "Unknown action.", result: { id: null, order: null } }, 400);
  }
  const parsedId = OrderIdSchema.safeParse(form.get("id") ?? "");
  if (!parsedId.success) {
    return reply({ status: "error", message: parsedId.error.issues[0]?.message ?? "Unknown order id.", result: { id: null, order: null } }, 400);
  }
  const id = parsedId.data;
  const db = context.db;
  // A rejection emails the supporter and can undo an approval: it takes a second, confirming press.
  if (intent === "reject" && form.get("confirmed") !== "yes") {
    const current = await getBadgeOrder(db, id).catch(() => null);
    if (current && current.status !== "rejected") {
      return reply({ status: "success", message: rejectQuestion(current), result: { id, order: current, confirm: "reject" } }, 200);
    }
  }
  const handler = handlers[intent];
  let order: BadgeOrderView;
  try {
    const note = StaffNoteSchema.safeParse(form.get("note") ?? "");
    if (!note.success) {
      return reply({ status: "error", message: note.error.issues[0]?.message ?? "The note is too long.", result: { id, order: null } }, 400);
    }
    order = await handler.run(db, id, staff(clientAddress(context)), {
      note: note.data,
      paymentChecked: form.get("paymentChecked") === "yes",
      reason: String(form.get("reason") ?? ""),
    });
  } catch (e) {
    const http = httpErrorOf(e);
    const known = http && http.status < 500 ? http : null;
    if (!known) console.error(`[badge-orders] ${intent} ${id} failed`, e);
    const current = await getBadgeOrder(db, id).catch(() => null);
    const message = known ? known.message : intent === "generate" ? "Failed to generate assets" : "Failed to update order";
    return reply({ status: "error", message, result: { id, order: current } }, known ? known.status : 500);
  }
  return reply({ status: "success", message: handler.done, result: { id, order } }, 200);
}
