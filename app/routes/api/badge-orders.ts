import { z } from "zod";
import { BadgeOrderSchema, ListQuerySchema, OrderIdSchema, StaffNoteSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { afterPayments } from "~/features/reconciliation/auto-approve.server";
import { promptNewOrder } from "~/features/stk-push/stk-push.server";
import { attachBadgeAssets, listBadgeOrders, setBadgeOrderStatus } from "~/features/reconciliation/orders.server";
import { PORTRAIT_MAX_BYTES, PORTRAIT_SIZE_MESSAGE } from "~/features/event-badges/portrait";
import { checkKitPng, decodeImageDataUrl, processPortrait } from "~/features/event-badges/portrait.server";
import type { AppLoadContext } from "react-router";
import { staff } from "~/lib/core/actor";
import { isAdminSession, requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { parseOr400, requireWithinLimit, trippedHoneypot } from "~/lib/forms/submission.server";
import { absoluteUrl, clientAddress, jsonResponse, readObjectBody } from "~/lib/http/http.server";
import { limits } from "~/lib/server/rate-limit.server";
import { admitPublicBody } from "~/lib/http/upload-guard.server";
import { checkIdempotencyKey, idempotencyOf } from "~/lib/http/idempotency-key.server";
import { replayNote } from "~/features/payment-codes/order-replay";

const KIT_MAX_BYTES = 5 * 1024 * 1024;
/** Staff send two kit PNGs as data URLs; the public one portrait (6 MB, base64) and a few fields. */
const STAFF_MAX_BYTES = 12 * 1024 * 1024;
const PUBLIC_MAX_BYTES = Math.ceil((PORTRAIT_MAX_BYTES * 4) / 3) + 64 * 1024;
const AssetsSchema = z.object({
  id: OrderIdSchema,
  posterDataUrl: z.string({ error: "posterDataUrl is required." }).max(8_000_000, "posterDataUrl is too large."),
  badgeDataUrl: z.string({ error: "badgeDataUrl is required." }).max(8_000_000, "badgeDataUrl is too large."),
});
const StatusSchema = z.object({
  id: OrderIdSchema,
  status: z.enum(["approved", "rejected"], { error: "status must be approved or rejected." }),
  /** Optional: sent to the supporter with a rejection. */
  note: StaffNoteSchema.optional(),
});
const PortraitField = z.object({
  portraitDataUrl: z.string().max(9_000_000, PORTRAIT_SIZE_MESSAGE).nullish(),
});

/** POST /api/badge_orders.php: a supporter's confirmation (public), or staff work on an order. */
const api = jsonApi({
  GET: async ({ request, url, context }) => {
    await requireAdminApi(request, context);
    const params = url.searchParams;
    const query = parseOr400(ListQuerySchema, {
      status: params.get("status") || undefined,
      q: params.get("q") || undefined,
    });
    // Oldest first: the legacy screen reverses the list to show the newest on top.
    const items = (await listBadgeOrders(context.db, query)).reverse();
    return jsonResponse({ ok: true, items });
  },
  POST: async ({ request, context }) => {
    // Who is calling is settled from the headers, before a byte of the body is read: a wrong
    // key is refused at once, and the public is admitted (counted, capped) before reading.
    const staff = request.headers.has("x-admin-key")
      ? (await requireAdminApi(request, context), true)
      : await isAdminSession(context.db, request);
    const slot = staff ? null : await admitPublicBody(request, context, PUBLIC_MAX_BYTES);
    try {
      return await post(request, context, await readObjectBody(request, staff ? STAFF_MAX_BYTES : PUBLIC_MAX_BYTES));
    } finally {
      slot?.release();
    }
  },
});

async function post(request: Request, context: AppLoadContext, body: Record<string, unknown>) {
  const db = context.db;
  if ("id" in body) {
    await requireAdminApi(request, context);
    const actor = staff(clientAddress(context));
    if ("status" in body) {
      const { id, status, note } = parseOr400(StatusSchema, body);
      // Approving an order whose payment M-Pesa does not show in full takes paymentChecked: true.
      const order = await setBadgeOrderStatus(db, id, status, actor, { note, paymentChecked: body.paymentChecked === true });
      return jsonResponse({ ok: true, order });
    }
    const input = parseOr400(AssetsSchema, body);
    const badge = await checkKitPng(decodeImageDataUrl(input.badgeDataUrl, KIT_MAX_BYTES, "badgeDataUrl is too large."), "badgeDataUrl");
    const poster = await checkKitPng(decodeImageDataUrl(input.posterDataUrl, KIT_MAX_BYTES, "posterDataUrl is too large."), "posterDataUrl");
    const order = await attachBadgeAssets(db, input.id, { badge, poster }, actor);
    return jsonResponse({ ok: true, order });
  }
  checkIdempotencyKey(request);
  // Looks like a bot: answer as if all went well, keep nothing.
  if (trippedHoneypot({ form: null, fields: body })) return jsonResponse({ ok: true, id: null });
  const input = parseOr400(BadgeOrderSchema, body);
  await requireWithinLimit(context, "badge-order", limits.badgeOrder);
  const { portraitDataUrl } = parseOr400(PortraitField, body);
  const portrait = portraitDataUrl
    ? await processPortrait(decodeImageDataUrl(portraitDataUrl, PORTRAIT_MAX_BYTES, PORTRAIT_SIZE_MESSAGE))
    : null;
  const placed = await submitBadgeOrder(db, input, portrait, { idempotency: idempotencyOf(request, body, clientAddress(context)) });
  // Its code may name a payment already received.
  afterPayments();
  const stk = await promptNewOrder(db, "badge", placed.id, placed.payment, clientAddress(context));
  if (stk) afterPayments();
  return jsonResponse({ ok: true, id: placed.id, ...replayNote(placed, absoluteUrl), ...(stk ? { stk } : {}) });
}
export const loader = api.loader;
export const action = api.action;
