import { getOrderWithPayment } from "~/features/reconciliation/orders.server";
import { linkPaymentToOrder, unlinkPaymentFromOrder } from "~/features/reconciliation/receipt-links.server";
import { ReceiptLinkApiSchema } from "~/features/reconciliation/receipt-links.schema";
import { staff } from "~/lib/core/actor";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { clientAddress, jsonResponse, readObjectBody } from "~/lib/http/http.server";
import { parseOr400 } from "~/lib/forms/submission.server";

/**
 * POST /api/mpesa_payments.php (admin, X-Admin-Key): `{"action": "link" | "unlink", "transId",
 * "orderId"}` links a received M-Pesa payment to an order or takes it away, as the forms on
 * /admin/payments do. Answers `{ok: true, order}`, the order with its `payment` as it now
 * stands; a receipt another order holds is a 409 saying which, an unknown order or payment a 404.
 */
const api = jsonApi({
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const input = parseOr400(ReceiptLinkApiSchema, await readObjectBody(request, 4 * 1024));
    const actor = staff(clientAddress(context));
    const done = input.action === "link" ? await linkPaymentToOrder(context.db, input, actor) : await unlinkPaymentFromOrder(context.db, input, actor);
    const order = await getOrderWithPayment(context.db, done.kind, done.orderId);
    return jsonResponse({ ok: true, order });
  },
});
export const loader = api.loader;
export const action = api.action;
