import { data, type AppLoadContext } from "react-router";
import { withLastSeen } from "~/features/received-payments/payment-arrivals.server";
import { z } from "zod";
import type { Db } from "~/lib/db/db.server";
import type { Actor } from "~/lib/core/actor";
import type { OrderRowResult } from "~/features/admin/order-row";
import { requireStaff } from "~/features/admin/staff-auth.server";
import type { Reply } from "~/lib/core/forms";
import { httpErrorOf } from "~/lib/http/http.server";
import { intentOf, parseSubmission, readForm, submissionOf, type Submission } from "~/lib/forms/submission.server";
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
  foundByStatus,
  ORDER_INTENTS,
  SCREEN_PATH,
  rejectQuestion,
  screenHref,
  type ListFilter,
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

/**
 * The data of /admin/badge-orders (for signed-in staff): the list as filtered by ?status=&q=.
 * A search looks in every state: the tab shows its own matches, and `found` says how many
 * matched in each state, so the screen can point to an order that is under another tab.
 */
export async function loadBadgeOrdersScreen(request: Request, url: URL, context: AppLoadContext) {
  const { filter, error } = readFilter(url.searchParams);
  const matches = await listBadgeOrders(context.db, {
    status: filter.q || filter.status === "all" ? undefined : filter.status,
    q: filter.q || undefined,
    payment: filter.payment || undefined,
    verifiedFirst: true,
  });
  const orders = filter.status === "all" ? matches : matches.filter((o) => o.status === filter.status);
  const found = filter.q ? foundByStatus(matches) : null;
  return { filter, filterError: error, orders: await withLastSeen(context.db, orders), found, actionPath: screenHref(filter), loadedAt: Date.now() };
}

type RowInput = z.output<typeof RowSchema>;

const text = (v: unknown) => (typeof v === "string" ? v : "");

/** A row form's fields: the order id, and what some buttons send (the note, the checked box, the reason). */
const RowSchema = z.object({
  id: z.preprocess(text, OrderIdSchema),
  note: z.preprocess(text, StaffNoteSchema),
  paymentChecked: z.preprocess((v) => v === "yes", z.boolean()),
  reason: z.preprocess(text, z.string()),
});

type Handler = (db: Db, id: string, actor: Actor, extra: RowInput) => Promise<BadgeOrderView>;

/** Each row action: the domain function (which writes the activity log) and the words staff see. */
const handlers: Record<OrderIntent, { run: Handler; done: string }> = {
  generate: { run: generateBadgeAssets, done: "Badge and poster attached to order." },
  "wall-hide": { run: (db, id, actor) => setWallHidden(db, id, true, actor).then(() => getBadgeOrder(db, id)), done: "Hidden from the supporter wall." },
  "wall-show": { run: (db, id, actor) => setWallHidden(db, id, false, actor).then(() => getBadgeOrder(db, id)), done: "Shown on the supporter wall again." },
  approve: {
    // One step: an order without its badge and poster gets them drawn first.
    run: (db, id, actor, { paymentChecked }) => setBadgeOrderStatus(db, id, "approved", actor, { paymentChecked, drawKit: true }),
    done: "Order approved and email triggered.",
  },
  reject: { run: (db, id, actor, { note }) => setBadgeOrderStatus(db, id, "rejected", actor, { note }), done: "Order rejected." },
  resend: { run: resendBadgeKit, done: "Badge kit email queued again." },
  "revoke-badge": {
    run: (db, id, actor, { reason }) => revokeSupporterBadge(db, id, reason, actor).then(() => getBadgeOrder(db, id)),
    done: "Badge revoked: its verification page and assertion now say so.",
  },
};

type R = OrderRowResult<BadgeOrderView, "reject">;
const rowReply = (reply: Reply<R>, status: number) => data(reply, status);

/** The words of a refused or failed row action: the refusal's reason, or the spec's generic words. */
const failedWords = (reason: string | null, intent: string) => reason ?? (intent === "generate" ? "Failed to generate assets" : "Failed to update order");

const isOrderIntent = (intent: string): intent is OrderIntent => (ORDER_INTENTS as readonly string[]).includes(intent);

/**
 * The row actions of /admin/badge-orders (intent generate, approve, reject or resend, with the
 * order id). A rejection emails the buyer and can undo an approval, so it takes a second,
 * confirming press. Known refusals come back as the spec's message with their 4xx status, and
 * the order as it now stands so its row catches up. An unexpected failure (the renderer, the
 * disk) is logged and answered with the spec's generic words and a 500, still as data, so the
 * screen stays usable.
 */
export async function badgeOrdersAdminAction(request: Request, url: URL, context: AppLoadContext) {
  const actor = await requireStaff(request, context, `${SCREEN_PATH}${url.search}`);
  const none = { id: null, order: null };
  let submission: Submission;
  try {
    submission = submissionOf(await readForm(request, 4096));
  } catch (e) {
    const refused = httpErrorOf(e);
    if (!refused) throw e;
    return rowReply({ status: "error", message: failedWords(refused.message, ""), result: none }, refused.status);
  }
  const intent = intentOf(submission);
  if (!isOrderIntent(intent)) return rowReply({ status: "error", message: failedWords("Unknown action.", ""), result: none }, 400);
  const parsed = parseSubmission(submission, RowSchema, "fields");
  if (!parsed.ok) {
    const id = OrderIdSchema.safeParse(text(submission.fields.id)).data ?? null;
    return rowReply({ status: "error", message: failedWords(parsed.first ?? null, intent), result: { id, order: null } }, 400);
  }
  const input = parsed.value;
  const db = context.db;
  if (intent === "reject" && submission.fields.confirmed !== "yes") {
    const current = await getBadgeOrder(db, input.id).catch(() => null);
    if (current && current.status !== "rejected") {
      return rowReply({ status: "success", message: rejectQuestion(current), result: { id: input.id, order: current, confirm: "reject" } }, 200);
    }
  }
  let order: BadgeOrderView;
  try {
    order = await handlers[intent].run(db, input.id, actor, input);
  } catch (e) {
    const refused = httpErrorOf(e);
    const known = refused !== null && refused.status < 500;
    if (!known) console.error(`[badge-orders] ${intent} failed`, e);
    const now = await getBadgeOrder(db, input.id).catch(() => null);
    return rowReply({ status: "error", message: failedWords(known ? refused.message : null, intent), result: { id: input.id, order: now } }, known ? refused.status : 500);
  }
  return rowReply({ status: "success", message: handlers[intent].done, result: { id: input.id, order } }, 200);
}
