import { z } from "zod";
import { EMAIL_PATTERN, PhoneField } from "~/lib/validation";
import {
  isValidPaymentCode,
  normalisePaymentCode,
  PAYMENT_CODE_INVALID,
  PAYMENT_CODE_REQUIRED,
} from "../payments/payment-code";
import { TIER_KEYS } from "./tiers";

export const BADGE_NAME_MESSAGE = "Please enter your full name.";
export const BADGE_EMAIL_MESSAGE = "Please provide a valid email address.";

const Checkbox = z.preprocess(
  (v) => v === true || v === "on" || v === "true" || v === "1" || v === 1,
  z.boolean(),
);

/**
 * A badge order as the form and POST /api/badge_orders.php send it. tierName, amount and
 * shareUrl may be sent by old clients but are ignored: the server's tier table decides.
 */
export const BadgeOrderSchema = z.object({
  tierKey: z.enum(TIER_KEYS, { error: "Tier configuration missing." }),
  name: z.string({ error: BADGE_NAME_MESSAGE }).trim().min(1, BADGE_NAME_MESSAGE).max(80, "Please keep the name under 80 characters."),
  email: z
    .string({ error: BADGE_EMAIL_MESSAGE })
    .trim()
    .max(254, BADGE_EMAIL_MESSAGE)
    .regex(EMAIL_PATTERN, BADGE_EMAIL_MESSAGE)
    .transform((e) => e.toLowerCase()),
  phone: PhoneField,
  paymentReference: z
    .string({ error: PAYMENT_CODE_REQUIRED })
    .max(2000, PAYMENT_CODE_INVALID)
    .transform(normalisePaymentCode)
    // Conform turns an empty string into undefined at every step, so the inner string needs the
    // required message too (a code of only spaces or dashes cleans down to "").
    .pipe(
      z
        .string({ error: PAYMENT_CODE_REQUIRED })
        .min(1, { error: PAYMENT_CODE_REQUIRED, abort: true })
        .refine(isValidPaymentCode, PAYMENT_CODE_INVALID),
    ),
  hardCopy: Checkbox.default(false),
  notes: z.string().trim().max(1000, "Please keep notes under 1,000 characters.").default(""),
});
export type BadgeOrderInput = z.output<typeof BadgeOrderSchema>;

export const BADGE_ORDER_STATUSES = ["pending", "approved", "rejected"] as const;
export type BadgeOrderStatus = (typeof BADGE_ORDER_STATUSES)[number];

export const OrderIdSchema = z.string().trim().regex(/^BO-[0-9A-Z]{6}$/, "Unknown order id.");

export const ListQuerySchema = z.object({
  status: z.enum(BADGE_ORDER_STATUSES, { error: "status must be pending, approved or rejected" }).optional(),
  q: z.string().trim().max(100, "Search text is too long.").optional(),
});
