import { z } from "zod";
import { EmailField } from "~/lib/core/validation";

export const ORDER_REFERENCE_MESSAGE = "Please enter your order reference, e.g. BO-7KQ2MX or MO-4TR8ZD.";
export const ORDER_NOT_FOUND_BY_EMAIL =
  "We could not find an order with that reference and email. Check both against the email we sent when you ordered.";
export const ORDER_LINK_NOT_FOUND = "We could not find that order. The link may be incomplete: open it again from your order email, or find your order below.";

/** The old site's order references: order_20251101_071502_a1b2c3 (badge), mo_6b0105e25fd897.61794504 and legacy_… (merch). */
export const OLD_ORDER_REFERENCE = /^(order_\d{8}_\d{6}_[0-9a-f]{6}|mo_[0-9a-f]{8,20}(\.\d{1,12})?|legacy_[0-9a-f]{12})$/i;

/** /orders: find an order's page again by its reference and the email it was placed with. */
export const OrderLookupSchema = z.object({
  // This site's references, or the old site's that supporters still hold (order_…, mo_…).
  reference: z
    .string({ error: ORDER_REFERENCE_MESSAGE })
    .trim()
    .transform((r) => (OLD_ORDER_REFERENCE.test(r) ? r.toLowerCase() : r.toUpperCase()))
    .refine((r) => /^(BO|MO)-[0-9A-Z]{6}$/.test(r) || OLD_ORDER_REFERENCE.test(r), ORDER_REFERENCE_MESSAGE),
  email: EmailField,
});
