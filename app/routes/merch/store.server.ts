import { data, redirect, type AppLoadContext } from "react-router";
import {
  formOf,
  invalidReply,
  NOT_SAVED,
  parseInput,
  parseSubmission,
  replyFromError,
  requireWithinLimit,
  trippedHoneypot,
  typedValues,
  type Submission,
} from "~/lib/forms/submission.server";
import { limits } from "~/lib/server/rate-limit.server";
import { BAG_HREF, ENHANCED_FIELD } from "~/features/merch/components/store-links";
import type { Reply } from "~/lib/core/forms";
import { AddToBagSchema, BagLineChangeSchema, CheckoutSchema } from "~/features/merch/merch.schema";
import { addToBag, changeBagLine, checkoutBag } from "~/features/merch/merch.server";
import { env } from "~/lib/server/env.server";
import { clientAddress } from "~/lib/http/http.server";
import { afterPayments } from "~/features/reconciliation/auto-approve.server";
import { promptNewOrder } from "~/features/stk-push/stk-push.server";

/** The bag's id lives in an HttpOnly cookie; the bag itself in the database. */
export const BAG_COOKIE = "bag";

export function readBagId(request: Request): string | null {
  const m = /(?:^|;\s*)bag=([A-Za-z0-9_-]{20,40})(?:;|$)/.exec(request.headers.get("cookie") ?? "");
  return m?.[1] ?? null;
}

export const bagCookie = (id: string) =>
  `${BAG_COOKIE}=${id}; Path=/; Max-Age=2592000; SameSite=Lax; HttpOnly${env().publicUrl.startsWith("https://") ? "; Secure" : ""}`;


const enhanced = (submission: Submission) => submission.fields[ENHANCED_FIELD] === "1";

/**
 * intent=add: puts a variant in the visitor's bag, creating the bag (and its cookie) on the
 * first add. A plain form is redirected to the open bag; a fetcher gets the reply.
 */
export async function addToBagAction(context: AppLoadContext, submission: Submission, before: string | null) {
  const intent = "add";
  // Looks like a bot: answer as if all went well, keep nothing.
  if (trippedHoneypot(submission)) return enhanced(submission) ? data<Reply>({ status: "success", intent }, 200) : redirect(BAG_HREF);
  const values = typedValues(submission);
  const parsed = parseSubmission(submission, AddToBagSchema);
  if (!parsed.ok) return invalidReply(parsed, { values, intent });
  let added: Awaited<ReturnType<typeof addToBag>>;
  try {
    await requireWithinLimit(context, "merch-bag", limits.merchBag);
    added = await addToBag(context.db, before, parsed.value);
  } catch (e) {
    return replyFromError(e, { values, intent }, { unexpected: NOT_SAVED });
  }
  const headers = new Headers();
  if (added.bagId !== before) headers.append("Set-Cookie", bagCookie(added.bagId));
  if (!enhanced(submission)) return redirect(BAG_HREF, { headers });
  return data<Reply>({ status: "success", result: { count: added.bag.count }, intent }, { status: 200, headers });
}

async function changeLine(context: AppLoadContext, submission: Submission, bagId: string | null, intent: "qty" | "remove") {
  const parsed = parseInput(BagLineChangeSchema, formOf(submission));
  if (!parsed.ok || (intent === "qty" && parsed.value.quantity === undefined)) {
    const first = parsed.ok ? undefined : parsed.first;
    return data<Reply>({ status: "error", intent, message: first ?? "That bag line could not be changed." }, 400);
  }
  const { key, quantity } = parsed.value;
  const bag = await changeBagLine(context.db, bagId, key, intent === "remove" ? "remove" : quantity!);
  if (!enhanced(submission)) return redirect(BAG_HREF);
  return data<Reply>({ status: "success", intent, result: { count: bag.count, total: bag.total } });
}

/** intent=qty: sets a line's quantity (the minus button stops at 1). */
export const changeQuantityAction = (context: AppLoadContext, submission: Submission, bagId: string | null) =>
  changeLine(context, submission, bagId, "qty");

/** intent=remove: takes a line out of the bag. */
export const removeLineAction = (context: AppLoadContext, submission: Submission, bagId: string | null) =>
  changeLine(context, submission, bagId, "remove");

/**
 * intent=checkout: places the order in the visitor's bag (priced from the catalogue, the
 * payment code claimed once) and empties the bag. The reply carries the order id.
 */
export async function checkoutAction(context: AppLoadContext, submission: Submission, bagId: string | null) {
  const intent = "checkout";
  // Looks like a bot: answer as if all went well, keep nothing.
  if (trippedHoneypot(submission)) return data<Reply>({ status: "success", intent }, 200);
  const values = typedValues(submission);
  const parsed = parseSubmission(submission, CheckoutSchema);
  if (!parsed.ok) return invalidReply(parsed, { values, intent });
  const input = parsed.value;
  let order: Awaited<ReturnType<typeof checkoutBag>>;
  let prompted: Awaited<ReturnType<typeof promptNewOrder>>;
  try {
    await requireWithinLimit(context, "merch-order", limits.merchOrder);
    order = await checkoutBag(context.db, bagId, input);
    // Its code may name a payment already received.
    afterPayments();
    // Paying now: the prompt goes out once the order is stored; its page shows what comes of it.
    prompted = await promptNewOrder(context.db, "merch", order.id, order.payment, clientAddress(context));
    if (prompted) afterPayments();
  } catch (e) {
    return replyFromError(e, { values, intent }, { unexpected: NOT_SAVED });
  }
  // Paid by prompt (sent now, or already for the same order sent before): its page shows what comes of it.
  const stk = prompted !== null || input.payWith === "stk";
  if (stk) throw redirect(order.orderPath, 303);
  const result = { id: order.id, total: order.total, currency: order.currency, orderPath: order.orderPath, stk, ...(order.replayed ? { replayed: true } : {}) };
  return data<Reply>({ status: "success", result, intent }, 200);
}
