import type { Route } from "./+types/mpesa-c2b";
import { answerValidation, receiveConfirmation } from "~/features/received-payments/c2b-callbacks.server";
import { afterPayments } from "~/features/reconciliation/auto-approve.server";
import { linkByAccount } from "~/features/reconciliation/receipts.server";
import { env } from "~/lib/server/env.server";
import { answeringEveryRequest } from "~/lib/http/api.server";
import { jsonError, jsonResponse, readBodyText } from "~/lib/http/http.server";
import { safeEqual } from "~/lib/db/secrets.server";

/**
 * Safaricom's Daraja C2B callbacks: POST /api/pay/c2b/{confirmation|validation}/{secret} (the
 * URLs staff register; Safaricom refuses any containing 'mpesa') and the older
 * /api/mpesa/c2b/... paths. Validation accepts every payment; confirmation keeps every one that
 * names a TransID (features/received-payments/c2b-callbacks.server.ts). Without MPESA_CALLBACK_SECRET, or
 * with a wrong one, both are a 404 like any unknown API path. Nothing a caller sends ends in a 5xx.
 */
export const loader = answeringEveryRequest(async () => jsonError(404, "No such API endpoint."));

export const action = answeringEveryRequest(async ({ request, context, params }: Route.ActionArgs) => {
  const secret = env().mpesaCallbackSecret;
  const kind = params.kind;
  if (!secret || !safeEqual(params.secret ?? "", secret) || (kind !== "confirmation" && kind !== "validation")) {
    return jsonError(404, "No such API endpoint.");
  }
  if (request.method !== "POST") return jsonError(405, "Method not allowed. Use POST.", { Allow: "POST" });
  const text = await readBodyText(request, 16 * 1024).catch(() => null);
  const answer = kind === "validation" ? answerValidation(text) : await receiveConfirmation(context.db, text);
  // A payment whose account number is an order's reference joins that order before Safaricom hears back.
  if (kind === "confirmation" && answer.payment) {
    await linkByAccount(context.db, undefined, { payments: [answer.payment] }).catch((e) => console.error("[mpesa] account-number matching failed", e));
    afterPayments();
  }
  return jsonResponse(answer.body, { status: answer.status, headers: answer.headers });
});
