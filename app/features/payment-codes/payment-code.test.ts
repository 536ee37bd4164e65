import { describe, expect, it, test } from "vitest";
import { codeInWords, isValidPaymentCode, normalisePaymentCode } from "./payment-code";

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
    // Real codes need not hold a digit.
    ["QKABCDEFGH", "QKABCDEFGH"],
    ["TKL9ZX2M4Q", "TKL9ZX2M4Q"],
    [" tkl9 zx2m4q ", "TKL9ZX2M4Q"],
    [
      "QKABCDEFGH Confirmed. Ksh2,500.00 sent to STREET LIGHT OUTREACH for account SUCCESSFUL on 12/11/25 at 7:42 PM. New M-PESA balance is Ksh1,000.00.",
      "QKABCDEFGH",
    ],
    [
      "qkabcdefgh confirmed. Ksh1,300.00 sent to STREET LIGHT OUTREACH for account T2 on 12/11/25 at 7:42 PM New M-PESA balance is Ksh12,000.00",
      "QKABCDEFGH",
    ],
    ["", ""],
    ["   ", ""],
  ])("%j gives %j", (input, expected) => {
    expect(normalisePaymentCode(input)).toBe(expected);
  });

  test("a phone number alone is not taken for a code", () => {
    const code = normalisePaymentCode("0712345678 paid yesterday");
    expect(isValidPaymentCode(code)).toBe(false);
  });

  test("validity: ten letters and digits, opening with a letter", () => {
    expect(isValidPaymentCode("SKL4Q2ZB7X")).toBe(true);
    expect(isValidPaymentCode("QKABCDEFGH")).toBe(true);
    expect(isValidPaymentCode("ABCDEFGHIJ")).toBe(true);
    expect(isValidPaymentCode("AB12")).toBe(false);
    expect(isValidPaymentCode("SKL4Q2ZB7X!")).toBe(false);
    expect(isValidPaymentCode("SKL4Q2ZB7XY")).toBe(false);
    expect(isValidPaymentCode("0712345678")).toBe(false);
    expect(isValidPaymentCode(normalisePaymentCode("paid cash"))).toBe(false);
  });
});

describe("an order's code in its emails", () => {
  it("an order paid by prompt (its reference as its code) is not said to have an M-Pesa code", () => {
    expect(codeInWords("BO-7KQ2MX", "BO-7KQ2MX")).toBe("Paying by M-Pesa prompt, account number BO-7KQ2MX");
    expect(codeInWords("BO-7KQ2MX", "SKL4Q2ZB7X")).toBe("M-Pesa code: SKL4Q2ZB7X");
  });
});
