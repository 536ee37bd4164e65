import type { Route } from "./+types/stk-callback";
import { afterPayments } from "~/features/reconciliation/auto-approve.server";
import { receiveStkCallback } from "~/features/stk-push/stk-push.server";
import { env } from "~/lib/server/env.server";
import { answeringEveryRequest } from "~/lib/http/api.server";
import { jsonError, jsonResponse, readBodyText } from "~/lib/http/http.server";
import { safeEqual } from "~/lib/db/secrets.server";

/**
 * M-Pesa Express results: POST /api/pay/stk/{MPESA_CALLBACK_SECRET} (the CallBackURL each push
 * names; Safaricom refuses URLs containing 'mpesa'). A wrong or unset secret is a 404 like any
 * unknown API path (features/stk-push/stk-push.server.ts).
 */
export const loader = answeringEveryRequest(async () => jsonError(404, "No such API endpoint."));

export const action = answeringEveryRequest(async ({ request, context, params }: Route.ActionArgs) => {
  const secret = env().mpesaCallbackSecret;
  if (!secret || !safeEqual(params.secret ?? "", secret)) return jsonError(404, "No such API endpoint.");
  if (request.method !== "POST") return jsonError(405, "Method not allowed. Use POST.", { Allow: "POST" });
  const text = await readBodyText(request, 16 * 1024).catch(() => null);
  const answer = await receiveStkCallback(context.db, text);
  if (answer.paid) afterPayments();
  return jsonResponse(answer.body, { status: answer.status });
});
