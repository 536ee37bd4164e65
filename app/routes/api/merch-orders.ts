import { MerchOrderApiSchema, MerchOrderStatusSchema } from "~/features/merch/merch.schema";
import { submitMerchOrder } from "~/features/merch/merch.server";
import { afterPayments } from "~/features/reconciliation/auto-approve.server";
import { promptNewOrder } from "~/features/stk-push/stk-push.server";
import { changeMerchOrderStatus, listMerchOrders } from "~/features/reconciliation/orders.server";
import { staff } from "~/lib/core/actor";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { parseOr400, readSubmission, requireWithinLimit, trippedHoneypot } from "~/lib/forms/submission.server";
import { absoluteUrl, clientAddress, jsonResponse, readObjectBody } from "~/lib/http/http.server";
import { limits } from "~/lib/server/rate-limit.server";
import { checkIdempotencyKey, idempotencyOf } from "~/lib/http/idempotency-key.server";
import { replayNote } from "~/features/payment-codes/order-replay";

type ApiLine = ReturnType<typeof MerchOrderApiSchema.parse>["items"][number];
/** A legacy bag line: the colour is a label or {label, swatch, image}; blanks mean none. */
const toLine = (l: ApiLine) => ({
  itemId: l.itemId,
  quantity: l.quantity,
  color: (typeof l.color === "string" ? l.color : l.color?.label)?.trim() || null,
  size: l.size?.trim() || null,
});

/** POST (public): place an order. GET (admin): list them. PATCH (admin): set a status. */
const api = jsonApi({
  POST: async ({ request, context }) => {
    checkIdempotencyKey(request);
    const submission = await readSubmission(request, 64 * 1024);
    // Looks like a bot: answer as if all went well, keep nothing.
    if (trippedHoneypot(submission)) return jsonResponse({ ok: true, id: null });
    const input = parseOr400(MerchOrderApiSchema, submission.fields);
    await requireWithinLimit(context, "merch-order", limits.merchOrder);
    const idempotency = idempotencyOf(request, submission.fields, clientAddress(context));
    // Paying now: "phone" names the number to prompt when customerPhone is not sent.
    const customerPhone = input.payWith === "stk" ? input.customerPhone || input.phone || "" : input.customerPhone;
    const placed = await submitMerchOrder(context.db, { ...input, customerPhone }, input.items.map(toLine), {
      clientCurrency: input.currency || undefined,
      idempotency,
    });
    // Its code may name a payment already received.
    afterPayments();
    const stk = await promptNewOrder(context.db, "merch", placed.id, placed.payment, clientAddress(context));
    if (stk) afterPayments();
    return jsonResponse({ ok: true, id: placed.id, ...replayNote(placed, absoluteUrl), ...(stk ? { stk } : {}) });
  },
  GET: async ({ request, url, context }) => {
    await requireAdminApi(request, context);
    const q = url.searchParams.get("q") ?? undefined;
    return jsonResponse({ ok: true, orders: await listMerchOrders(context.db, q) });
  },
  PATCH: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const body = await readObjectBody(request);
    // A cancelled note prompt sends null: the current note stays.
    const { id, status, notes } = parseOr400(MerchOrderStatusSchema, { ...body, notes: body.notes ?? undefined });
    // Approving an order whose payment M-Pesa does not show in full takes paymentChecked: true.
    const paymentChecked = body.paymentChecked === true;
    const order = await changeMerchOrderStatus(context.db, { id, status, notes, paymentChecked }, staff(clientAddress(context)));
    return jsonResponse({ ok: true, order });
  },
});
export const loader = api.loader;
export const action = api.action;
