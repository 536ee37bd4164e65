import { z } from "zod";
import { DomainError } from "~/lib/core/domain-error";
import { mpesaPhone, PHONE_MESSAGE } from "./stk-push";

/** How an order form or the JSON API says the order is paid: a typed code (the default) or a prompt on the phone. */
export const PayWithField = z.enum(["code", "stk"], { error: "payWith must be code or stk." }).default("code");

export type PaymentChoice = { by: "code"; code: string } | { by: "stk"; phone: string };

/**
 * The order's payment, as chosen: its code (required when paying by paybill), or the phone to
 * prompt (2547…/2541…; required when paying now). Refusals name the field.
 */
export function paymentChoice(
  input: { payWith: "code" | "stk"; paymentReference?: string | undefined },
  phone: string,
  opts: { codeRequired: string; phoneField: string; stkOn: boolean },
): PaymentChoice {
  if (input.payWith === "stk") {
    if (!opts.stkOn) throw new DomainError("invalid", "Paying with an M-Pesa prompt is not available right now: pay by paybill and enter your M-Pesa code.", "paymentReference");
    const msisdn = mpesaPhone(phone);
    if (!msisdn) throw new DomainError("invalid", PHONE_MESSAGE, opts.phoneField);
    return { by: "stk", phone: msisdn };
  }
  if (!input.paymentReference) throw new DomainError("invalid", opts.codeRequired, "paymentReference");
  return { by: "code", code: input.paymentReference };
}

/** POST /api/stk_push.php: send the prompt again for one's own order (the order page's token). */
export const ResendPromptSchema = z.object({
  orderId: z.string({ error: "orderId is required." }).trim().regex(/^(BO|MO)-[0-9A-Z]{6}$/, "Unknown order id."),
  token: z.string({ error: "token is required." }).trim().min(1, "token is required.").max(100, "Unknown order."),
  /** A corrected number, taken only after M-Pesa refused the order's number (400.002.02). */
  phone: z.string({ error: "phone must be text." }).trim().max(30, PHONE_MESSAGE).optional(),
});

/** An order schema's check: the code is required unless the order is paid by prompt. */
export const codeUnlessStk =
  (message: string) =>
  (v: { payWith: "code" | "stk"; paymentReference?: string | undefined }, ctx: z.RefinementCtx) => {
    if (v.payWith === "code" && !v.paymentReference) ctx.addIssue({ code: "custom", path: ["paymentReference"], message });
  };
