import { isValidPaymentCode, normalisePaymentCode, PAYMENT_CODE_INVALID, PAYMENT_CODE_REQUIRED } from "../../payments/payment-code";
import { PORTRAIT_MAX_BYTES, PORTRAIT_SIZE_MESSAGE, PORTRAIT_TYPE_MESSAGE } from "../portrait";

// The server's words (badge-order.schema.ts); a test keeps the two copies equal. The schema
// itself is not imported here because it would bring zod into the page's JavaScript.
export const NAME_MESSAGE = "Please enter your full name.";
export const EMAIL_MESSAGE = "Please provide a valid email address.";
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type OrderFields = { name: string; email: string; paymentReference: string };

/** The checks made in the browser before sending; the server makes them again regardless. */
export function checkOrder(fields: OrderFields): Record<string, string> {
  const errors: Record<string, string> = {};
  if (fields.name.trim() === "") errors.name = NAME_MESSAGE;
  if (!EMAIL_PATTERN.test(fields.email.trim())) errors.email = EMAIL_MESSAGE;
  const code = normalisePaymentCode(fields.paymentReference);
  if (code === "") errors.paymentReference = PAYMENT_CODE_REQUIRED;
  else if (!isValidPaymentCode(code)) errors.paymentReference = PAYMENT_CODE_INVALID;
  return errors;
}

/** A chosen portrait file, before it is drawn: returns the message to show, or null. */
export function checkPortraitFile(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith("image/")) return PORTRAIT_TYPE_MESSAGE;
  if (file.size > PORTRAIT_MAX_BYTES) return PORTRAIT_SIZE_MESSAGE;
  return null;
}
