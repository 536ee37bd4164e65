import type { Route } from "./+types/mpesa-c2b";
import { C2BSchema, paymentFromC2B } from "~/features/received-payments/daraja";
import { recordPayment } from "~/features/received-payments/received-payments.server";
import { env } from "~/lib/env.server";
import { HttpError, jsonError, jsonResponse, readBodyText } from "~/lib/http.server";
import { safeEqual } from "~/lib/secrets.server";

/**
 * Safaricom's Daraja C2B callbacks: POST /api/mpesa/c2b/{confirmation|validation}/{secret}.
 * Confirmation is told of every payment into the paybill: it is stored (once, whatever the
 * retries) before 'Accepted' goes back. Validation accepts every payment (the site must never
 * refuse money) and only logs it. Without MPESA_CALLBACK_SECRET, or with a wrong one, both are
 * a 404 like any unknown API path. A body that is not a payment is a 400 with a non-zero
 * ResultCode; nothing a caller sends ends in a 5xx.
 */
const ACCEPTED = { ResultCode: 0, ResultDesc: "Accepted" };
const refused = (why: string) => jsonResponse({ ResultCode: 1, ResultDesc: why.slice(0, 200) }, 400);

export async function loader() {
  return jsonError(404, "No such API endpoint.");
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const secret = env().mpesaCallbackSecret;
  const kind = params.kind;
  if (!secret || !safeEqual(params.secret ?? "", secret) || (kind !== "confirmation" && kind !== "validation")) {
    return jsonError(404, "No such API endpoint.");
  }
  if (request.method !== "POST") return jsonError(405, "Method not allowed. Use POST.", { Allow: "POST" });
  let body: unknown;
  try {
    body = JSON.parse(await readBodyText(request, 16 * 1024));
  } catch (e) {
    const why = e instanceof HttpError ? e.message : "The body is not JSON.";
    console.warn(`[mpesa] ${kind} callback refused: ${why}`);
    return refused(why);
  }
  const parsed = C2BSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const why = `${issue?.path.join(".") || "body"}: ${issue?.message ?? "not a payment"}`;
    console.warn(`[mpesa] ${kind} callback refused: ${why}`);
    return refused(why);
  }
  const payment = paymentFromC2B(parsed.data);
  if ("error" in payment) {
    console.warn(`[mpesa] ${kind} callback refused: ${payment.error}`);
    return refused(payment.error);
  }
  if (kind === "validation") {
    console.log(`[mpesa] validation: ${payment.code} KES ${payment.amount} to ${payment.shortcode} accepted`);
    return jsonResponse(ACCEPTED);
  }
  if (payment.shortcode !== env().mpesaShortcode) {
    // Another paybill's payment is no payment of ours: acknowledged (so it is not retried), not stored.
    console.warn(`[mpesa] confirmation for shortcode ${payment.shortcode} ignored (ours is ${env().mpesaShortcode}): ${payment.code}`);
    return jsonResponse(ACCEPTED);
  }
  try {
    const { added } = await recordPayment(context.db, payment);
    console.log(`[mpesa] confirmation ${payment.code} KES ${payment.amount}${added ? "" : " (already known)"}`);
  } catch (e) {
    // The disk, not the caller: Safaricom retries a confirmation that is not acknowledged.
    console.error(`[mpesa] confirmation ${payment.code} could not be stored`, e);
    return jsonResponse({ ResultCode: 1, ResultDesc: "Try again later" }, { status: 503, headers: { "Retry-After": "30" } });
  }
  return jsonResponse(ACCEPTED);
}
