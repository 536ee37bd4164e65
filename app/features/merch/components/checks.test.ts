import { describe, expect, it } from "vitest";
import { FALLBACK_CATALOGUE, MERCH_MESSAGES } from "../merch";
import { AddToBagSchema, CheckoutSchema } from "../merch.schema";
import { checkAddToBag, checkCheckout, clampQuantity } from "./checks";

const [hoodie, tote] = FALLBACK_CATALOGUE as [(typeof FALLBACK_CATALOGUE)[number], (typeof FALLBACK_CATALOGUE)[number]];

/** The checkout schema's first message per field, for the fields the browser checks. */
function serverErrors(fields: { customerName: string; customerEmail: string; paymentReference: string }) {
  const r = CheckoutSchema.safeParse(fields);
  const out: Record<string, string> = {};
  for (const issue of r.success ? [] : r.error.issues) {
    const key = String(issue.path[0]);
    if (!out[key]) out[key] = issue.message;
  }
  return out;
}

describe("checkCheckout", () => {
  const cases = [
    { customerName: "Wanjiku Kamau", customerEmail: "w@example.org", paymentReference: "SKL4Q2ZB7X" },
    { customerName: "   ", customerEmail: "w@example.org", paymentReference: "SKL4Q2ZB7X" },
    { customerName: "A", customerEmail: "not-an-email", paymentReference: "SKL4Q2ZB7X" },
    { customerName: "A", customerEmail: " w@example.org ", paymentReference: "  " },
    { customerName: "A", customerEmail: "w@x", paymentReference: "abc" },
    { customerName: "A", customerEmail: "w@example.org", paymentReference: "skl4q2zb7x Confirmed. Ksh4,700.00 sent to STREET LIGHT for account 321325" },
    { customerName: "", customerEmail: "", paymentReference: "" },
  ];

  it.each(cases)("gives the server's words for %j", (fields) => {
    expect(checkCheckout(fields)).toEqual(serverErrors(fields));
  });

  it("asks for the M-Pesa code in the spec's words", () => {
    expect(checkCheckout({ customerName: "A", customerEmail: "a@b.co", paymentReference: " " })).toEqual({
      paymentReference: "Enter your M-Pesa confirmation code.",
    });
  });
});

describe("checkAddToBag", () => {
  it("accepts a full choice", () => {
    expect(checkAddToBag(hoodie, { color: "Night Blue", size: "M", quantity: "2" })).toEqual({});
    expect(checkAddToBag(tote, { color: "", size: "One size", quantity: "1" })).toEqual({});
  });

  it("names a missing colour, size and quantity with the spec's messages", () => {
    expect(checkAddToBag(hoodie, { color: "", size: "", quantity: "0" })).toEqual({
      color: "Select a colour to continue.",
      size: "Select a size to continue.",
      quantity: "Quantity must be at least 1.",
    });
    expect(checkAddToBag(hoodie, { color: "Purple", size: "M", quantity: "1" }).color).toBe(MERCH_MESSAGES.selectColour);
  });

  it.each(["0", "-1", "1.5", "", "abc", "51"])("matches the server on quantity %j", (quantity) => {
    const server = AddToBagSchema.safeParse({ itemId: hoodie.id, color: "Night Blue", size: "M", quantity });
    const serverMessage = server.success ? undefined : server.error.issues.find((i) => i.path[0] === "quantity")?.message;
    // An empty field is "no quantity" to the form parser (the default 1); the browser asks for one.
    const expected = quantity === "" ? MERCH_MESSAGES.quantityMin : serverMessage;
    expect(checkAddToBag(hoodie, { color: "Night Blue", size: "M", quantity }).quantity).toBe(expected);
  });
});

describe("clampQuantity", () => {
  it("floors at 1 and stops at the line maximum", () => {
    expect([clampQuantity("0"), clampQuantity("-4"), clampQuantity(""), clampQuantity("abc"), clampQuantity("3.7"), clampQuantity(99)]).toEqual([1, 1, 1, 1, 3, 50]);
  });
});
