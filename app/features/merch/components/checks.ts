import { emailError, fieldErrors, nameError } from "~/lib/core/rules";
import { paymentCodeError } from "../../payment-codes/payment-code";
import { MAX_LINE_QUANTITY, MERCH_MESSAGES, type MerchItem } from "../merch";
import { mpesaPhone, PHONE_MESSAGE } from "../../stk-push/stk-push";

// The browser's checks, with the rules and words the schemas are built from (merch.schema.ts,
// merch.server.ts). The schemas are not imported here: they would bring zod into the page.

/** The quantity field floors at 1 (and stops at the per-line maximum). */
export function clampQuantity(value: string | number): number {
  const n = Math.trunc(Number(value));
  if (!Number.isFinite(n) || n < 1) return 1;
  return Math.min(MAX_LINE_QUANTITY, n);
}

export function checkAddToBag(
  item: Pick<MerchItem, "colors" | "sizes">,
  fields: { color: string; size: string; quantity: string },
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (item.colors.length > 0 && !item.colors.some((c) => c.label === fields.color)) errors.color = MERCH_MESSAGES.selectColour;
  if (item.sizes.length > 0 && !item.sizes.includes(fields.size)) errors.size = MERCH_MESSAGES.selectSize;
  const q = Number(fields.quantity.trim());
  if (fields.quantity.trim() === "" || !Number.isInteger(q) || q < 1) errors.quantity = MERCH_MESSAGES.quantityMin;
  else if (q > MAX_LINE_QUANTITY) errors.quantity = MERCH_MESSAGES.quantityMax;
  return errors;
}

export function checkCheckout(fields: { customerName: string; customerEmail: string; paymentReference: string; payWith?: string; customerPhone?: string }): Record<string, string> {
  return fieldErrors({
    customerName: nameError(fields.customerName),
    customerEmail: emailError(fields.customerEmail),
    // Paying now by prompt: the phone is needed, the code is not.
    paymentReference: fields.payWith === "stk" ? undefined : paymentCodeError(fields.paymentReference, MERCH_MESSAGES.codeRequired),
    customerPhone: fields.payWith === "stk" && !mpesaPhone(fields.customerPhone ?? "") ? PHONE_MESSAGE : undefined,
  });
}
