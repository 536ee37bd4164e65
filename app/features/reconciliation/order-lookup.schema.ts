import { z } from "zod";
import { EmailField } from "~/lib/validation";

export const ORDER_REFERENCE_MESSAGE = "Please enter your order reference, e.g. BO-7KQ2MX or MO-4TR8ZD.";
export const ORDER_NOT_FOUND_BY_EMAIL =
  "We could not find an order with that reference and email. Check both against the email we sent when you ordered.";
export const ORDER_LINK_NOT_FOUND = "We could not find that order. The link may be incomplete: open it again from your order email, or find your order below.";

/** /orders: find an order's page again by its reference and the email it was placed with. */
export const OrderLookupSchema = z.object({
  reference: z
    .string({ error: ORDER_REFERENCE_MESSAGE })
    .trim()
    .toUpperCase()
    .regex(/^(BO|MO)-[0-9A-Z]{6}$/, ORDER_REFERENCE_MESSAGE),
  email: EmailField,
});
