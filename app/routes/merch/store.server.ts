import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type AppLoadContext } from "react-router";
import { formOf, handleForm, type Submission } from "~/lib/submission.server";
import { limits } from "~/lib/rate-limit.server";
import { BAG_HREF, ENHANCED_FIELD } from "~/features/merch/components/store-links";
import type { Reply } from "~/lib/forms";
import { AddToBagSchema, BagLineChangeSchema, CheckoutSchema } from "~/features/merch/merch.schema";
import { addToBag, changeBagLine, checkoutBag } from "~/features/merch/merch.server";
import { env } from "~/lib/env.server";
import { clientAddress } from "~/lib/http.server";
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
  let created: string | null = null;
  const reply = await handleForm({
    context,
    submission,
    schema: AddToBagSchema,
    limit: { name: "merch-bag", rule: limits.merchBag },
    run: async (input) => {
      const { bagId, bag } = await addToBag(context.db, before, input);
      if (bagId !== before) created = bagId;
      return { count: bag.count };
    },
  });
  const headers = new Headers(reply.init?.headers);
  if (created) headers.append("Set-Cookie", bagCookie(created));
  if (reply.data.status === "success" && !enhanced(submission)) return redirect(BAG_HREF, { headers });
  return data<Reply>({ ...reply.data, intent: "add" }, { status: reply.init?.status ?? 200, headers });
}

async function changeLine(context: AppLoadContext, submission: Submission, bagId: string | null, intent: "qty" | "remove") {
  const parsed = parseWithZod(formOf(submission), { schema: BagLineChangeSchema });
  if (parsed.status !== "success" || (intent === "qty" && parsed.value.quantity === undefined)) {
    const errors = parsed.status === "success" ? {} : (parsed.error ?? {});
    const first = Object.values(errors).find((v) => v?.length)?.[0];
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
  const reply = await handleForm({
    context,
    submission,
    schema: CheckoutSchema,
    limit: { name: "merch-order", rule: limits.merchOrder },
    run: async (input) => {
      const order = await checkoutBag(context.db, bagId, input);
      // Paying now: the prompt goes out once the order is stored; its page shows what comes of it.
      const stk = await promptNewOrder(context.db, "merch", order.id, order.payment, clientAddress(context));
      return {
        id: order.id,
        total: order.total,
        currency: order.currency,
        orderPath: order.orderPath,
        // Paid by prompt (sent now, or already for the same order sent before): its page shows what comes of it.
        stk: stk !== null || input.payWith === "stk",
        ...(order.replayed ? { replayed: true } : {}),
      };
    },
  });
  if (reply.data.status === "success" && (reply.data.result as { stk?: boolean } | undefined)?.stk) throw redirect((reply.data.result as { orderPath: string }).orderPath, 303);
  return data<Reply>({ ...reply.data, intent: "checkout" }, reply.init ?? undefined);
}
