import { z } from "zod";
import { isImageAddress, SLUG_PATTERN } from "~/lib/core/rules";
import { EmailField, fullNameField, NotesField, PhoneField } from "~/lib/core/validation";
import { paymentCodeField } from "../payment-codes/payment-code.schema";
import { codeUnlessStk, PayWithField } from "../stk-push/stk-push.schema";
import { MAX_LINE_QUANTITY, MERCH_MESSAGES } from "./merch";

const Hex = z.string().trim().regex(/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/, "Colour swatches must be hex colours such as #123b5d.");
/** Site images: a path on this site or an https address; never javascript: or data:. */
const ImageRef = z
  .string()
  .trim()
  .max(500, "Image addresses must be under 500 characters.")
  .refine((v) => v === "" || isImageAddress(v), "Images must be a path on this site (/images/...) or an https address.");

export const MerchColorSchema = z.object({
  label: z.string().trim().min(1).max(40),
  swatch: Hex,
  image: ImageRef.optional(),
});

export const MerchItemSchema = z.object({
  id: z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/, "Item ids (SKUs) use letters, digits, dashes and underscores, up to 40."),
  name: z.string().trim().min(1, "Every item needs a name.").max(80, "Names must be under 80 characters."),
  slug: z.string().trim().max(60, "Slugs must be under 60 characters.").regex(SLUG_PATTERN, "Slugs use lower-case letters, digits and single dashes (e.g. street-light-hoodie)."),
  description: z.string().trim().max(1000, "Descriptions must be under 1,000 characters.").default(""),
  price: z.number().int("Prices are whole shillings.").min(0, "Prices cannot be negative.").max(1_000_000, "That price is too high."),
  currency: z.string().trim().regex(/^[A-Z]{3}$/, "Currency is a three-letter code such as KES.").default("KES"),
  impact: z.string().trim().max(300, "Impact text must be under 300 characters.").default(""),
  image: ImageRef.default(""),
  tags: z.array(z.string().trim().min(1).max(30)).max(12).default([]),
  available: z.boolean().default(true),
  colors: z.array(MerchColorSchema).max(12).default([]),
  sizes: z.array(z.string().trim().min(1).max(20)).max(12).default([]),
});

/** The whole catalogue as staff save it: ids and slugs unique. */
export const CatalogueSchema = z
  .array(MerchItemSchema)
  .max(200, "At most 200 items.")
  .superRefine((items, ctx) => {
    const seen = { id: new Set<string>(), slug: new Set<string>() };
    for (const [i, item] of items.entries()) {
      for (const key of ["id", "slug"] as const) {
        if (seen[key].has(item[key])) {
          ctx.addIssue({ code: "custom", path: [i, key], message: `Two items share the ${key} "${item[key]}".` });
        }
        seen[key].add(item[key]);
      }
    }
  });

const Quantity = z.coerce
  .number({ error: MERCH_MESSAGES.quantityMin })
  .int(MERCH_MESSAGES.quantityMin)
  .min(1, MERCH_MESSAGES.quantityMin)
  .max(MAX_LINE_QUANTITY, MERCH_MESSAGES.quantityMax);

export const AddToBagSchema = z.object({
  itemId: z.string().trim().min(1).max(40),
  color: z.string().trim().max(40).optional(),
  size: z.string().trim().max(20).optional(),
  quantity: Quantity.default(1),
});

export const BagLineChangeSchema = z.object({
  key: z.string().trim().min(1).max(120),
  quantity: Quantity.optional(),
});

/** Checkout: who is ordering and the payment code; the lines come from the bag. */
export const CheckoutSchema = z.object({
  customerName: fullNameField(),
  customerEmail: EmailField,
  customerPhone: PhoneField,
  notes: NotesField,
  // Required unless payWith is 'stk' (checked with the phone by paymentChoice).
  paymentReference: paymentCodeField(MERCH_MESSAGES.codeRequired).optional(),
  payWith: PayWithField,
}).superRefine(codeUnlessStk(MERCH_MESSAGES.codeRequired));
export type CheckoutInput = z.output<typeof CheckoutSchema>;

/** POST /api/merch_orders.php: the checkout fields plus the lines (prices and total ignored). */
export const MerchOrderApiSchema = CheckoutSchema.extend({
  /** With payWith 'stk': the number to prompt, when customerPhone is not sent. */
  phone: z.string().trim().max(20, "phone is too long.").optional(),
  currency: z.string().trim().max(3).optional(),
  total: z.unknown().optional(),
  items: z
    .array(
      z.object({
        itemId: z.string().trim().min(1).max(40),
        quantity: Quantity,
        color: z.union([z.string().max(40), z.object({ label: z.string().max(40) }).passthrough(), z.null()]).optional(),
        size: z.string().max(20).nullish(),
      }).passthrough(),
    )
    .min(1, MERCH_MESSAGES.emptyBag)
    .max(50, "At most 50 lines in one order."),
});

export const MerchOrderStatusSchema = z.object({
  id: z.string().trim().regex(/^MO-[0-9A-Z]{6}$/, "Unknown order id."),
  status: z.enum(["pending", "approved", "rejected"], { error: "status must be pending, approved or rejected." }),
  notes: z.string().trim().max(1000, "Staff notes must be under 1,000 characters.").optional(),
});
