import { answerOf } from "~/features/stk-push/stk-push.server";
import { resendPrompt } from "~/features/reconciliation/order-prompts.server";
import { ResendPromptSchema } from "~/features/stk-push/stk-push.schema";
import { jsonApi } from "~/lib/http/api.server";
import { clientAddress, jsonError, jsonResponse, readObjectBody } from "~/lib/http/http.server";
import { parseOr400 } from "~/lib/forms/submission.server";

/** POST /api/stk_push.php {orderId, token}: the M-Pesa prompt again, to the phone typed with the order. */
const api = jsonApi({
  POST: async ({ request, context }) => {
    const input = parseOr400(ResendPromptSchema, await readObjectBody(request, 4 * 1024));
    const sent = await resendPrompt(context.db, { ...input, ip: clientAddress(context) });
    if (sent.state === "refused") return jsonError(429, sent.message, { "Retry-After": String(sent.retryAfterSeconds) });
    return jsonResponse({ ok: true, stk: answerOf(sent) });
  },
});
export const loader = api.loader;
export const action = api.action;
