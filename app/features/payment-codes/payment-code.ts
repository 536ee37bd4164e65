/**
 * M-Pesa confirmation codes are ten upper-case letters and digits (e.g. "SKL4Q2ZB7X",
 * "QKABCDEFGH"). Nothing guarantees a digit in them: the leading letters follow the date and
 * the rest is a sequence. People type them (any case, with spaces or dashes), or paste the
 * whole confirmation SMS; both give the same code.
 */
export const PAYMENT_CODE_REQUIRED = "Payment confirmation code is required.";
export const PAYMENT_CODE_INVALID =
  "Enter the M-Pesa confirmation code (10 letters and numbers), or paste the whole confirmation SMS.";
/** The longest text the field takes: room for a pasted SMS. */
export const PAYMENT_CODE_MAX_INPUT = 2000;

/** A code: ten letters and digits, the first a letter (codes open with the date's letters). */
const CODE = /^[A-Z][A-Z0-9]{9}$/;
/** In an SMS the code stands right before "Confirmed": "SKL4Q2ZB7X Confirmed. Ksh1,300.00 sent to …". */
const BEFORE_CONFIRMED = /(?:^|[^A-Z0-9])([A-Z][A-Z0-9]{9})[\s.,:;-]*CONFIRMED\b/;

export function normalisePaymentCode(raw: string): string {
  const text = raw.trim().toUpperCase();
  if (text === "") return "";
  // A typed code, perhaps with spaces or dashes inside.
  const compact = text.replace(/[\s-]/g, "");
  if (CODE.test(compact)) return compact;
  // A pasted SMS: the token before "Confirmed", else a ten-character token holding a digit
  // (a word such as "SUCCESSFUL" is ten letters too, so a letters-only token is not guessed).
  const confirmed = BEFORE_CONFIRMED.exec(text);
  if (confirmed) return confirmed[1]!;
  const withDigit = text.split(/[^A-Z0-9]+/).find((t) => CODE.test(t) && /\d/.test(t));
  if (withDigit) return withDigit;
  // Validation judges what is left, and says what is expected.
  return compact;
}

export const isValidPaymentCode = (code: string) => CODE.test(code);

/**
 * The check of a typed or pasted code, as the schema's `paymentCodeField` makes it: the message
 * to show, or undefined. Each form names a missing code in its own words.
 */
export function paymentCodeError(raw: string, requiredMessage = PAYMENT_CODE_REQUIRED): string | undefined {
  if (raw.length > PAYMENT_CODE_MAX_INPUT) return PAYMENT_CODE_INVALID;
  const code = normalisePaymentCode(raw);
  if (code === "") return requiredMessage;
  return isValidPaymentCode(code) ? undefined : PAYMENT_CODE_INVALID;
}

/**
 * An order's code as its emails say it: an order paid by prompt has no code of its own (its
 * reference stands in, as the account number), so it is not called an M-Pesa code.
 */
export const codeInWords = (orderId: string, code: string) => (code === orderId ? `Paying by M-Pesa prompt, account number ${orderId}` : `M-Pesa code: ${code}`);
