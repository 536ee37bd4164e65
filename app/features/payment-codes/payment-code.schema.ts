import { z } from "zod";
import {
  isValidPaymentCode,
  normalisePaymentCode,
  PAYMENT_CODE_INVALID,
  PAYMENT_CODE_MAX_INPUT,
  PAYMENT_CODE_REQUIRED,
} from "./payment-code";

/**
 * A payment-code field: the text is normalised (typed code or pasted SMS) before it is judged,
 * and a missing code is named in the form's own words. `paymentCodeError` is the browser's
 * copy of these steps.
 */
export const paymentCodeField = (requiredMessage = PAYMENT_CODE_REQUIRED) =>
  z
    .string({ error: requiredMessage })
    .max(PAYMENT_CODE_MAX_INPUT, PAYMENT_CODE_INVALID)
    .transform(normalisePaymentCode)
    // Conform turns an empty string into undefined at every step, so the inner string needs the
    // required message too (a code of only spaces or dashes cleans down to "").
    .pipe(
      z
        .string({ error: requiredMessage })
        .min(1, { error: requiredMessage, abort: true })
        .refine(isValidPaymentCode, PAYMENT_CODE_INVALID),
    );
