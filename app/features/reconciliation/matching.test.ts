import { describe, expect, it } from "vitest";
import { decidePaymentState, type ReceiptFact } from "./matching";

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
  const decide = (receipts: ReceiptFact[], salesOpenedAt: string | null = null) =>
    decidePaymentState({ order, receipts, covered: [], callbacksSince: null, salesOpenedAt });

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
    expect(decidePaymentState({ ...none, covered: [], callbacksSince: null }).state).toBe("unmatched");
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-01T00:00:00Z", to: "2025-11-13T10:00:00Z" }], callbacksSince: null }).state).toBe("unmatched");
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-01T00:00:00Z", to: "2025-11-14T00:00:00Z" }], callbacksSince: null }).state).toBe("not_found");
    expect(decidePaymentState({ ...none, covered: [], callbacksSince: "2025-11-01T00:00:00Z" }).state).toBe("not_found");
    expect(decidePaymentState({ ...none, covered: [], callbacksSince: "2025-11-12T17:00:00Z" }).state).toBe("unmatched");
  });
});
