import { describe, expect, it } from "vitest";
import { decidePaymentState } from "./matching";

describe("an order's payment state", () => {
  const order = { amount: 1300, createdAt: "2025-11-12T16:00:00.000Z" };
  const payment = (amount: number) => ({ amount, paidAt: "2025-11-12T15:55:00.000Z", payerName: "JANE WANJIKU" });

  it("verified with the code and at least the amount; short by the difference", () => {
    expect(decidePaymentState({ order, payment: payment(1300), covered: [], callbacksSince: null })).toMatchObject({ state: "verified", receivedAmount: 1300 });
    expect(decidePaymentState({ order, payment: payment(1500), covered: [], callbacksSince: null }).state).toBe("verified");
    expect(decidePaymentState({ order, payment: payment(1000), covered: [], callbacksSince: null })).toMatchObject({ state: "short", shortBy: 300 });
  });

  it("not found only when the records cover the order's time and a day after; else unmatched", () => {
    const none = { order, payment: null };
    expect(decidePaymentState({ ...none, covered: [], callbacksSince: null }).state).toBe("unmatched");
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-01T00:00:00Z", to: "2025-11-13T10:00:00Z" }], callbacksSince: null }).state).toBe("unmatched");
    expect(decidePaymentState({ ...none, covered: [{ from: "2025-11-01T00:00:00Z", to: "2025-11-14T00:00:00Z" }], callbacksSince: null }).state).toBe("not_found");
    expect(decidePaymentState({ ...none, covered: [], callbacksSince: "2025-11-01T00:00:00Z" }).state).toBe("not_found");
    expect(decidePaymentState({ ...none, covered: [], callbacksSince: "2025-11-12T17:00:00Z" }).state).toBe("unmatched");
  });
});
