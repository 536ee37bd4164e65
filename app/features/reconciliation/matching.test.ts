import { describe, expect, it } from "vitest";
import { coveredForEveryNumber, joined } from "./coverage";
import { decidePaymentState, paymentView, type ReceiptFact } from "./matching";

describe("an order's payment state", () => {
  const order = { amount: 1300, createdAt: "2025-11-12T16:00:00.000Z" };
  const receipt = (amount: number, fields: Partial<ReceiptFact> = {}): ReceiptFact => ({
    transId: "SKL4Q2ZB7X",
    amount,
    paidAt: "2025-11-12T15:55:00.000Z",
    payerName: "JANE WANJIKU",
    matchedBy: "code",
    ...fields,
  });
  const decide = (receipts: ReceiptFact[], salesOpenedAt: string | null = null) => decidePaymentState({ order, receipts, covered: [], salesOpenedAt });

  it("verified with exactly the amount; short by the difference; more than the amount is over, not verified", () => {
    expect(decide([receipt(1300)])).toMatchObject({ state: "verified", receivedAmount: 1300 });
    expect(decide([receipt(1500)])).toMatchObject({ state: "over", receivedAmount: 1500, overBy: 200 });
    expect(decide([receipt(1000)])).toMatchObject({ state: "short", shortBy: 300 });
  });

  it("the receipts an order holds are counted together: a top-up completes a short order, or takes it over", () => {
    const first = receipt(1000);
    const topUp = receipt(300, { transId: "TAB12CD34E", paidAt: "2025-11-13T08:00:00.000Z", payerName: "JOHN OTIENO", matchedBy: "account" });
    expect(decide([topUp, first])).toMatchObject({
      state: "verified",
      receivedAmount: 1300,
      receivedAt: topUp.paidAt,
      payerName: "JANE WANJIKU",
      receipts: [first, topUp],
    });
    expect(decide([first, { ...topUp, amount: 500 }])).toMatchObject({ state: "over", overBy: 200 });
  });

  it("early: a receipt paid more than 7 days before the order, or before badge sales opened", () => {
    expect(decide([receipt(1300, { paidAt: "2025-11-05T16:00:00.000Z" })]).state).toBe("verified");
    expect(decide([receipt(1300, { paidAt: "2025-11-05T15:59:00.000Z" })])).toMatchObject({ state: "early", receivedAmount: 1300 });
    expect(decide([receipt(1300)], "2025-11-13T00:00:00.000Z")).toMatchObject({ state: "early", beforeSales: true });
    expect(decide([receipt(1300)], "2025-11-01T00:00:00.000Z")).toMatchObject({ state: "verified" });
  });

  it("not found only when the records cover the order's time and a day after; else unmatched", () => {
    const none = { order, receipts: [] };
    expect(decidePaymentState({ ...none, covered: [] }).state).toBe("unmatched");
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-01T00:00:00Z", to: "2025-11-13T10:00:00Z" }] }).state).toBe("unmatched");
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-01T00:00:00Z", to: "2025-11-14T00:00:00Z" }] }).state).toBe("not_found");
  });

  it("a statement must cover the week before the order too: the code is typed after paying", () => {
    const none = { order, receipts: [] };
    // Starts the morning of the order: a payment made the evening before would not be on it.
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-12T00:00:00Z", to: "2025-11-30T00:00:00Z" }] }).state).toBe("unmatched");
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-05T16:00:00Z", to: "2025-11-30T00:00:00Z" }] }).state).toBe("not_found");
  });

  it("a reversed payment is reversed, whatever its amount, and the view says by which receipt and when", () => {
    const reversed = { by: "TKR9X0AB12", at: "2025-11-13T07:00:00.000Z" };
    const standing = decide([receipt(1300, { reversed })]);
    expect(standing).toMatchObject({ state: "reversed", receivedAmount: 1300, reversedBy: "TKR9X0AB12" });
    expect(decide([receipt(1000, { reversed })]).state).toBe("reversed");
    expect(paymentView(standing)).toEqual({
      state: "reversed",
      receivedAmount: 1300,
      receivedAt: "2025-11-12T15:55:00.000Z",
      payerName: "JANE WANJIKU",
      receipts: [{ transId: "SKL4Q2ZB7X", amount: 1300, at: "2025-11-12T15:55:00.000Z", payerName: "JANE WANJIKU", matchedBy: "code" }],
      reversedBy: "TKR9X0AB12",
      reversedAt: "2025-11-13T07:00:00.000Z",
    });
    expect(paymentView(decide([receipt(1300)]))).not.toHaveProperty("reversedBy");
  });

  it("one reversed receipt among several makes the order reversed, before over, early or verified", () => {
    const reversed = { by: "TKR9X0AB12", at: "2025-11-13T07:00:00.000Z" };
    const topUp = receipt(300, { transId: "TAB12CD34E", paidAt: "2025-11-13T08:00:00.000Z", matchedBy: "account", reversed });
    expect(decide([receipt(1000), topUp])).toMatchObject({ state: "reversed", receivedAmount: 1300, reversedBy: "TKR9X0AB12" });
    expect(decide([receipt(1300), topUp]).state).toBe("reversed");
    expect(decide([receipt(1300, { paidAt: "2025-11-01T00:00:00.000Z", reversed })]).state).toBe("reversed");
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
