import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CallbacksSetAside, CallbackSetup, OddParts } from "./callback-setup";

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ").trim();

describe("what staff see of the callbacks on /admin/payments", () => {
  it("the exact URLs to register, for every number", () => {
    const html = renderToStaticMarkup(
      <CallbackSetup
        setup={{
          shortcodes: ["880100", "5123456"],
          urls: {
            confirmation: "https://outreach.example.org/api/pay/c2b/confirmation/k7Qm2-xP9w_Lr4tZ8vB3",
            validation: "https://outreach.example.org/api/pay/c2b/validation/k7Qm2-xP9w_Lr4tZ8vB3",
          },
          warnings: [],
        }}
      />,
    );
    expect(text(html)).toContain(
      "Register these with Safaricom (Daraja, C2B Register URL) for each of 880100, 5123456, ResponseType Completed : " +
        "ConfirmationURL https://outreach.example.org/api/pay/c2b/confirmation/k7Qm2-xP9w_Lr4tZ8vB3 " +
        "ValidationURL https://outreach.example.org/api/pay/c2b/validation/k7Qm2-xP9w_Lr4tZ8vB3",
    );
  });

  it("without a secret, how to turn the callbacks on; warnings as alerts", () => {
    const html = renderToStaticMarkup(<CallbackSetup setup={{ shortcodes: ["880100"], urls: null, warnings: ["PUBLIC_URL contains 'mpesa'."] }} />);
    expect(text(html)).toContain("Callbacks are off: set MPESA_CALLBACK_SECRET");
    expect(html).toContain('role="alert"');
  });

  it("payments to another number and unreadable ones, with the body as it came", () => {
    const html = renderToStaticMarkup(
      <CallbacksSetAside
        rows={[
          {
            transId: "TKB9ZZ0XYZ",
            reason: "other_number",
            note: "Paid to 999999, which is not one of this site's numbers (880100).",
            shortcode: "999999",
            amount: 1500,
            paidAt: "2026-11-26T14:10:05.000Z",
            payerName: "JOHN",
            payerPhone: "2f1a7c…1d4f",
            accountRef: "BO-7K2Q9P",
            body: '{"TransID":"TKB9ZZ0XYZ"}',
            receivedAt: "2026-11-26T14:10:06.000Z",
          },
        ]}
      />,
    );
    const t = text(html);
    expect(t).toContain("Callbacks set aside (1)");
    expect(t).toContain("TKB9ZZ0XYZ Other number 999999 Paid to 999999, which is not one of this site's numbers (880100).");
    expect(t).toContain("JOHN 2f1a7c…1d4f");
    expect(html).toContain("{&quot;TransID&quot;:&quot;TKB9ZZ0XYZ&quot;}");
  });

  it("the odd parts of a payment stored on doubt, as they came", () => {
    const html = renderToStaticMarkup(<OddParts parts={[{ field: "TransAmount", value: 1300.5, note: "not whole shillings; counted as 1300" }]} />);
    expect(text(html)).toBe("Stored on doubt TransAmount: 1300.5 (not whole shillings; counted as 1300)");
    expect(renderToStaticMarkup(<OddParts parts={[]} />)).toBe("");
  });
});
