import { emailError, fieldErrors, nameError } from "~/lib/core/rules";
import { paymentCodeError } from "../../payment-codes/payment-code";
import { mpesaPhone, PHONE_MESSAGE } from "../../stk-push/stk-push";
import { PORTRAIT_TYPE_MESSAGE } from "../portrait";

export type OrderFields = { name: string; email: string; paymentReference: string; payWith?: string; phone?: string };

/**
 * The checks made in the browser before sending, with the rules and words the schema is built
 * from (badge-order.schema.ts); the server makes them again regardless.
 */
export function checkOrder(fields: OrderFields): Record<string, string> {
  return fieldErrors({
    name: nameError(fields.name),
    email: emailError(fields.email),
    // Paying now by prompt: the phone is needed, the code is not.
    paymentReference: fields.payWith === "stk" ? undefined : paymentCodeError(fields.paymentReference),
    phone: fields.payWith === "stk" && !mpesaPhone(fields.phone ?? "") ? PHONE_MESSAGE : undefined,
  });
}

/**
 * A chosen portrait file, before it is drawn: returns the message to show, or null. Any size:
 * the crop step sends only the cropped 720x720 picture, and refuses what it cannot decode or
 * more than 50 megapixels once it has read the picture's size.
 */
export function checkPortraitFile(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith("image/")) return PORTRAIT_TYPE_MESSAGE;
  return null;
}
