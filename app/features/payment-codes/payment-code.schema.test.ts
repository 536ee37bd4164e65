import { describe, expect, it } from "vitest";
import { PAYMENT_CODE_INVALID, PAYMENT_CODE_REQUIRED, paymentCodeError } from "./payment-code";
import { paymentCodeField } from "./payment-code.schema";

const SMS = "skl4q2zb7x Confirmed. Ksh1,300.00 sent to STREET LIGHT for account VESPERS on 21/11/25 at 7:02 PM.";
const OWN_WORDS = "Enter your M-Pesa confirmation code.";

/** The schema's first message, or undefined when the text passes. */
function schemaError(raw: unknown, required?: string) {
  const r = paymentCodeField(required).safeParse(raw);
  return r.success ? undefined : r.error.issues[0]?.message;
}

describe("paymentCodeField", () => {
  it("keeps the code from a typed code or a pasted SMS", () => {
    expect(paymentCodeField().parse(" skl4-q2zb 7x ")).toBe("SKL4Q2ZB7X");
    expect(paymentCodeField().parse(SMS)).toBe("SKL4Q2ZB7X");
  });

  it.each([undefined, "", "  ", " - - "])("asks for a code when given %j, in the form's own words", (raw) => {
    expect(schemaError(raw)).toBe(PAYMENT_CODE_REQUIRED);
    expect(schemaError(raw, OWN_WORDS)).toBe(OWN_WORDS);
  });

  it.each(["abc", "0712345678", "paid cash", "x".repeat(2001)])("refuses %j saying what is expected", (raw) => {
    expect(schemaError(raw)).toBe(PAYMENT_CODE_INVALID);
  });
});

describe("paymentCodeError, the browser's copy", () => {
  it.each(["SKL4Q2ZB7X", " skl4-q2zb 7x ", SMS, "", "  ", " - - ", "abc", "0712345678", "QKABCDEFGH", "x".repeat(2001)])(
    "says what the schema says for %j",
    (raw) => {
      expect(paymentCodeError(raw)).toBe(schemaError(raw));
      expect(paymentCodeError(raw, OWN_WORDS)).toBe(schemaError(raw, OWN_WORDS));
    },
  );
});
