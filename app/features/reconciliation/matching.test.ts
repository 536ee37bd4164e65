import { describe, expect, it } from "vitest";
import { coveredForEveryNumber, joined } from "./coverage";
import { decidePaymentState, paymentView } from "./matching";

describe("an order's payment state", () => {
  const order = { amount: 1300, createdAt: "2025-11-12T16:00:00.000Z" };
  const payment = (amount: number) => ({ amount, paidAt: "2025-11-12T15:55:00.000Z", payerName: "JANE WANJIKU" });

  it("verified with the code and at least the amount; short by the difference", () => {
    expect(decidePaymentState({ order, payment: payment(1300), covered: [] })).toMatchObject({ state: "verified", receivedAmount: 1300 });
    expect(decidePaymentState({ order, payment: payment(1500), covered: [] }).state).toBe("verified");
    expect(decidePaymentState({ order, payment: payment(1000), covered: [] })).toMatchObject({ state: "short", shortBy: 300 });
  });

  it("not found only when the records cover the order's time and a day after; else unmatched", () => {
    const none = { order, payment: null };
    expect(decidePaymentState({ ...none, covered: [] }).state).toBe("unmatched");
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-01T00:00:00Z", to: "2025-11-13T10:00:00Z" }] }).state).toBe("unmatched");
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-01T00:00:00Z", to: "2025-11-14T00:00:00Z" }] }).state).toBe("not_found");
  });

  it("a statement must cover the week before the order too: the code is typed after paying", () => {
    const none = { order, payment: null };
    // Starts the morning of the order: a payment made the evening before would not be on it.
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-12T00:00:00Z", to: "2025-11-30T00:00:00Z" }] }).state).toBe("unmatched");
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-05T16:00:00Z", to: "2025-11-30T00:00:00Z" }] }).state).toBe("not_found");
  });

  it("a reversed payment is reversed, whatever its amount, and the view says by which receipt and when", () => {
    const reversed = { by: "TKR9X0AB12", at: "2025-11-13T07:00:00.000Z" };
    const standing = decidePaymentState({ order, payment: payment(1300), covered: [], reversed });
    expect(standing).toMatchObject({ state: "reversed", receivedAmount: 1300, reversedBy: "TKR9X0AB12" });
    expect(decidePaymentState({ order, payment: payment(1000), covered: [], reversed }).state).toBe("reversed");
    expect(paymentView(standing)).toEqual({
      state: "reversed",
      receivedAmount: 1300,
      receivedAt: "2025-11-12T15:55:00.000Z",
      payerName: "JANE WANJIKU",
      reversedBy: "TKR9X0AB12",
      reversedAt: "2025-11-13T07:00:00.000Z",
    });
    expect(paymentView(decidePaymentState({ order, payment: payment(1300), covered: [] }))).not.toHaveProperty("reversedBy");
  });
});

describe("what the statements cover", () => {
  const oct = { from: "2025-09-30T21:00:00.000Z", to: "2025-10-31T20:59:59.000Z" };
  const nov = { from: "2025-10-31T21:00:00.000Z", to: "2025-11-30T20:59:59.000Z" };

  it("statements of one number that meet join up", () => {
    expect(joined([nov, oct])).toEqual([{ from: oct.from, to: nov.to }]);
    expect(joined([oct, { from: "2025-11-10T00:00:00.000Z", to: "2025-11-11T00:00:00.000Z" }])).toHaveLength(2);
  });

  it("only numbers of the site count, and a time counts only where every number of the site is covered", () => {
    const paybill = [{ ...oct, shortcode: "880100" }, { ...nov, shortcode: "880100" }];
    expect(coveredForEveryNumber(paybill, ["880100"])).toEqual([{ from: oct.from, to: nov.to }]);
    // A till payment is not on the paybill's statement.
    expect(coveredForEveryNumber(paybill, ["880100", "5123456"])).toEqual([]);
    const till = [{ from: "2025-10-15T00:00:00.000Z", to: "2025-12-15T00:00:00.000Z", shortcode: "5123456" }];
    expect(coveredForEveryNumber([...paybill, ...till], ["880100", "5123456"])).toEqual([{ from: "2025-10-15T00:00:00.000Z", to: nov.to }]);
    expect(coveredForEveryNumber([{ ...nov, shortcode: "123456" }], ["880100"])).toEqual([]);
  });
});
