import { emailError, fieldErrors, nameError } from "~/lib/rules";
import { paymentCodeError } from "../../payment-codes/payment-code";
import { PORTRAIT_MAX_BYTES, PORTRAIT_SIZE_MESSAGE, PORTRAIT_TYPE_MESSAGE } from "../portrait";

export type OrderFields = { name: string; email: string; paymentReference: string };

/**
 * The checks made in the browser before sending, with the rules and words the schema is built
 * from (badge-order.schema.ts); the server makes them again regardless.
 */
export function checkOrder(fields: OrderFields): Record<string, string> {
  return fieldErrors({
    name: nameError(fields.name),
    email: emailError(fields.email),
    paymentReference: paymentCodeError(fields.paymentReference),
  });
}

/** A chosen portrait file, before it is drawn: returns the message to show, or null. */
export function checkPortraitFile(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith("image/")) return PORTRAIT_TYPE_MESSAGE;
  if (file.size > PORTRAIT_MAX_BYTES) return PORTRAIT_SIZE_MESSAGE;
  return null;
}
