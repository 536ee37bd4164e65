import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type AppLoadContext } from "react-router";
import { handleForm, readForm, submissionOf } from "~/lib/submission.server";
import { httpErrorOf } from "~/lib/http.server";
import { limits } from "~/lib/rate-limit.server";
import { BAG_HREF, ENHANCED_FIELD } from "~/features/merch/components/store-links";
import type { Reply } from "~/lib/forms";
import { AddToBagSchema, BagLineChangeSchema, CheckoutSchema } from "~/features/merch/merch.schema";
import { addToBag, changeBagLine, checkoutBag } from "~/features/merch/merch.server";
import { env } from "~/lib/env.server";

/** The bag's id lives in an HttpOnly cookie; the bag itself in the database. */
export const BAG_COOKIE = "bag";

export function readBagId(request: Request): string | null {
  const m = /(?:^|;\s*)bag=([A-Za-z0-9_-]{20,40})(?:;|$)/.exec(request.headers.get("cookie") ?? "");
  return m?.[1] ?? null;
}

export const bagCookie = (id: string) =>
  `${BAG_COOKIE}=${id}; Path=/; Max-Age=2592000; SameSite=Lax; HttpOnly${env().publicUrl.startsWith("https://") ? "; Secure" : ""}`;


type Answer = ReturnType<typeof data<Reply>>;
const enhanced = (formData: FormData) => formData.get(ENHANCED_FIELD) === "1";

/** The page's form body, or a reply in the page's words when it cannot be read. */
export async function readStoreForm(request: Request): Promise<FormData | Answer> {
  try {
    return await readForm(request);
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) return data<Reply>({ status: "error", detail: http.message }, http.status);
    throw e;
  }
}

export function unknownIntent(intent: unknown) {
  return data<Reply>({ status: "error", detail: "This page does not know that form.", intent: String(intent ?? "") }, 400);
}

/**
 * intent=add: puts a variant in the visitor's bag, creating the bag (and its cookie) on the
 * first add. A plain form is redirected to the open bag; a fetcher gets the reply.
 */
export async function addToBagAction(request: Request, context: AppLoadContext, formData: FormData) {
  const before = readBagId(request);
  let created: string | null = null;
  const reply = await handleForm({
    request,
    context,
    submission: submissionOf(formData),
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
  if (reply.data.status === "success" && !enhanced(formData)) return redirect(BAG_HREF, { headers });
  return data<Reply>({ ...reply.data, intent: "add" }, { status: reply.init?.status ?? 200, headers });
}

async function changeLine(request: Request, context: AppLoadContext, formData: FormData, intent: "qty" | "remove") {
  const submission = parseWithZod(formData, { schema: BagLineChangeSchema });
  if (submission.status !== "success" || (intent === "qty" && submission.value.quantity === undefined)) {
    const errors = submission.status === "success" ? {} : (submission.error ?? {});
    const first = Object.values(errors).find((v) => v?.length)?.[0];
    return data<Reply>({ status: "error", intent, detail: first ?? "That bag line could not be changed." }, 400);
  }
  const { key, quantity } = submission.value;
  const bag = await changeBagLine(context.db, readBagId(request), key, intent === "remove" ? "remove" : quantity!);
  if (!enhanced(formData)) return redirect(BAG_HREF);
  return data<Reply>({ status: "success", intent, result: { count: bag.count, total: bag.total } });
}

/** intent=qty: sets a line's quantity (the minus button stops at 1). */
export const changeQuantityAction = (request: Request, context: AppLoadContext, formData: FormData) =>
  changeLine(request, context, formData, "qty");

/** intent=remove: takes a line out of the bag. */
export const removeLineAction = (request: Request, context: AppLoadContext, formData: FormData) =>
  changeLine(request, context, formData, "remove");

/**
 * intent=checkout: places the order in the visitor's bag (priced from the catalogue, the
 * payment code claimed once) and empties the bag. The reply carries the order id.
 */
export async function checkoutAction(request: Request, context: AppLoadContext, formData: FormData) {
  const reply = await handleForm({
    request,
    context,
    submission: submissionOf(formData),
    schema: CheckoutSchema,
    limit: { name: "merch-order", rule: limits.merchOrder },
    run: async (input) => {
      const order = await checkoutBag(context.db, readBagId(request), input);
      return { id: order.id, total: order.total, currency: order.currency };
    },
  });
  return data<Reply>({ ...reply.data, intent: "checkout" }, reply.init ?? undefined);
}
