import { z } from "zod";
import { EMAIL_MESSAGE } from "~/lib/core/rules";
import { emailField, fullNameField, NotesField, PhoneField } from "~/lib/core/validation";
import { paymentCodeField } from "../payment-codes/payment-code.schema";
import { PAYMENT_CODE_REQUIRED } from "../payment-codes/payment-code";
import { codeUnlessStk, PayWithField } from "../stk-push/stk-push.schema";
import { TIER_KEYS } from "./tiers";
import { WALL_NAME_MAX_LENGTH, WALL_NAME_MESSAGE, WALL_NAME_PATTERN } from "./wall";

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
  name: fullNameField(),
  // An over-long address is 'not valid' here, as the order form has always said.
  email: emailField({ tooLong: EMAIL_MESSAGE }),
  phone: PhoneField,
  // Required unless payWith is 'stk' (checked with the phone by paymentChoice).
  paymentReference: paymentCodeField().optional(),
  payWith: PayWithField,
  hardCopy: Checkbox.default(false),
  notes: NotesField,
  // The supporter wall (/event/supporters): nobody is listed without saying yes.
  showOnWall: Checkbox.default(false),
  wallName: z
    .string()
    .trim()
    .max(WALL_NAME_MAX_LENGTH, WALL_NAME_MESSAGE)
    .regex(WALL_NAME_PATTERN, WALL_NAME_MESSAGE)
    .default(""),
  wallPortrait: Checkbox.default(false),
}).superRefine(codeUnlessStk(PAYMENT_CODE_REQUIRED));
export type BadgeOrderInput = z.output<typeof BadgeOrderSchema>;

export const BADGE_ORDER_STATUSES = ["pending", "approved", "rejected"] as const;
export type BadgeOrderStatus = (typeof BADGE_ORDER_STATUSES)[number];

export const OrderIdSchema = z.string().trim().regex(/^BO-[0-9A-Z]{6}$/, "Unknown order id.");

/** A staff note on a decision (a rejection's reason, emailed to the supporter). */
export const STAFF_NOTE_MAX_LENGTH = 500;
export const StaffNoteSchema = z.string().trim().max(STAFF_NOTE_MAX_LENGTH, `The note is too long (at most ${STAFF_NOTE_MAX_LENGTH} characters).`);

export const ListQuerySchema = z.object({
  status: z.enum(BADGE_ORDER_STATUSES, { error: "status must be pending, approved or rejected" }).optional(),
  q: z.string().trim().max(100, "Search text is too long.").optional(),
});
