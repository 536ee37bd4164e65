/**
 * M-Pesa confirmation codes are ten letters and digits (e.g. "SKL4Q2ZB7X"). People type
 * them, or paste the whole confirmation SMS; both give the same code, trimmed and upper-cased.
 */
const CODE_IN_TEXT = /(?:^|[^A-Z0-9])((?=[A-Z0-9]{0,9}[A-Z])(?=[A-Z0-9]{0,9}\d)[A-Z0-9]{10})(?![A-Z0-9])/;

export const PAYMENT_CODE_REQUIRED = "Payment confirmation code is required.";
export const PAYMENT_CODE_INVALID =
  "Enter the M-Pesa confirmation code (10 letters and numbers), or paste the whole confirmation SMS.";

export function normalisePaymentCode(raw: string): string {
  const text = raw.trim().toUpperCase();
  if (text === "") return "";
  // A ten-character run holding letters and digits: a typed code, or the code in a pasted SMS.
  const found = CODE_IN_TEXT.exec(text);
  if (found) return found[1]!;
  // Otherwise a code typed with spaces or dashes in it; validation judges what is left.
  return text.replace(/[\s-]/g, "");
}

/** Ten letters and digits, holding at least one of each. */
export const isValidPaymentCode = (code: string) => /^(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{10}$/.test(code);
