import { describe, expect, it } from "vitest";
import { codesLookAlike, lookAlikeKeys, orderReferenceIn, probablyThisOrder } from "./receipt-rules";

describe("an order reference in an account number, as people type it", () => {
  it.each([
    ["BO-7K2Q4M", "BO-7K2Q4M"],
    ["bo 7k2q4m", "BO-7K2Q4M"],
    ["BO7K2Q4M", "BO-7K2Q4M"],
    [" Bo-7k2q4m ", "BO-7K2Q4M"],
    ["b0 7k2q4m", "BO-7K2Q4M"],
    ["mo.4tr8zd", "MO-4TR8ZD"],
    ["SHOP#MO-4TR8ZD", "MO-4TR8ZD"],
    ["BO-7K2Q4M JANE", "BO-7K2Q4M"],
    // References hold no O, I, L or U: the look-alike digit is meant.
    ["BO-7KO2MX", "BO-7K02MX"],
  ])("%j names %j", (typed, ref) => {
    expect(orderReferenceIn(typed)).toBe(ref);
  });

  it.each(["VESPERS", "321325", "", "BO-7K2Q4", "BO-7K2Q4MX9", "JANE"])("%j names no order", (typed) => {
    expect(orderReferenceIn(typed)).toBeNull();
  });
});

describe("a receipt code that is probably the typed one", () => {
  it("look-alikes (O/0, I/1, S/5, B/8, Z/2) and one wrong character", () => {
    expect(codesLookAlike("SKL4Q2ZB7X", "SKL4Q2ZB7X")).toBe(false);
    expect(codesLookAlike("SKLOQ2ZB7X", "SKL0Q2ZB7X")).toBe(true);
    expect(codesLookAlike("5KL4Q2Z87X", "SKL4Q2ZB7X")).toBe(true);
    expect(codesLookAlike("SKL4Q2ZB7X", "SKL4Q2ZB7Y")).toBe(true);
    expect(codesLookAlike("SKL4Q2ZB7X", "SKL4Q3ZB7Y")).toBe(false);
    expect(codesLookAlike("SKL4Q2ZB7X", "SKL4Q2ZB7")).toBe(false);
  });

  it("only with the order's amount and within three days of the order", () => {
    const order = { code: "SKL4Q2ZB7X", amount: 1300, createdAt: "2026-11-12T16:00:00.000Z" };
    expect(probablyThisOrder(order, { code: "SKL4Q2Z87X", amount: 1300, paidAt: "2026-11-12T15:50:00.000Z" })).toBe(true);
    expect(probablyThisOrder(order, { code: "SKL4Q2Z87X", amount: 1000, paidAt: "2026-11-12T15:50:00.000Z" })).toBe(false);
    expect(probablyThisOrder(order, { code: "SKL4Q2Z87X", amount: 1300, paidAt: "2026-11-08T15:50:00.000Z" })).toBe(false);
  });
});

describe("look-alike keys", () => {
  const share = (a: string, b: string) => lookAlikeKeys(a).some((k) => lookAlikeKeys(b).includes(k));
  it.each([
    ["SKLOQ2ZB7X", "SKL0Q2ZB7X"],
    ["5KL4Q2Z87X", "SKL4Q2ZB7X"],
    ["SKL4Q2ZB7X", "SKL4Q2ZB7Y"],
    ["SKL4Q2ZB7X", "SKL4Q3ZB7Y"],
    ["SKL4Q2ZB7X", "SKL4Q2ZB7"],
    ["TKR1ST2UVW", "AB12CD34EF"],
  ])("%j and %j share a key exactly when they look alike", (a, b) => {
    expect(share(a, b)).toBe(a === b || codesLookAlike(a, b));
  });
});
