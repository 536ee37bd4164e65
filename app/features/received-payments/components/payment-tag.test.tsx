import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PaymentView } from "../payment-state";
import { PaymentTag } from "./payment-tag";

const unmatched: PaymentView = { state: "unmatched", receivedAmount: null, receivedAt: null, payerName: null, receipts: [] };

describe("PaymentTag", () => {
  it("shows an order's M-Pesa prompt: when, and M-Pesa's result", () => {
    const html = renderToStaticMarkup(
      <PaymentTag payment={{ ...unmatched, stk: { state: "cancelled", sentAt: "2026-11-28T09:05:00.000Z", resultCode: "1032", resultDesc: "Request cancelled by user" } } as PaymentView} amount={1300} />,
    );
    expect(html).toContain("M-Pesa prompt 28 Nov 2026, 12:05: cancelled on the phone (ResultCode 1032: Request cancelled by user)");
  });

  it("says nothing of prompts for an order without one", () => {
    expect(renderToStaticMarkup(<PaymentTag payment={unmatched} amount={1300} />)).not.toContain("M-Pesa prompt");
  });
});
