import { describe, expect, test } from "vitest";
import { isValidPaymentCode, normalisePaymentCode } from "./payment-code";

describe("normalisePaymentCode", () => {
  test.each([
    ["skl4q2zb7x", "SKL4Q2ZB7X"],
    ["  SKL4Q2ZB7X  ", "SKL4Q2ZB7X"],
    ["SKL4 Q2ZB7X", "SKL4Q2ZB7X"],
    ["skl4-q2zb-7x", "SKL4Q2ZB7X"],
    [
      "SKL4Q2ZB7X Confirmed. Ksh1,300.00 sent to STREET LIGHT OUTREACH for account VESPERS on 21/11/25 at 7:02 PM. New M-PESA balance is Ksh2,000.00. Transaction cost, Ksh0.00.",
      "SKL4Q2ZB7X",
    ],
    ["Confirmed. Code: tkm9ab12cd thanks", "TKM9AB12CD"],
    ["", ""],
    ["   ", ""],
  ])("%j gives %j", (input, expected) => {
    expect(normalisePaymentCode(input)).toBe(expected);
  });

  test("a phone number alone is not taken for a code", () => {
    const code = normalisePaymentCode("0712345678 paid yesterday");
    expect(isValidPaymentCode(code)).toBe(false);
  });

  test("validity: ten letters and digits, with at least one of each", () => {
    expect(isValidPaymentCode("SKL4Q2ZB7X")).toBe(true);
    expect(isValidPaymentCode("AB12")).toBe(false);
    expect(isValidPaymentCode("SKL4Q2ZB7X!")).toBe(false);
    expect(isValidPaymentCode("SKL4Q2ZB7XY")).toBe(false);
    expect(isValidPaymentCode("ABCDEFGHIJ")).toBe(false);
    expect(isValidPaymentCode("0712345678")).toBe(false);
    expect(isValidPaymentCode(normalisePaymentCode("paid cash"))).toBe(false);
  });
});
