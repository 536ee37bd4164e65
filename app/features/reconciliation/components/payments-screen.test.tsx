import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { ReceivedPaymentRow } from "../../received-payments/received-payments";
import type { PaymentMismatch } from "../payments-screen";
import type { StatementResult } from "../payments-screen";
import { importWords, PaymentsScreen } from "./payments-screen";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();

type Data = Parameters<typeof PaymentsScreen>[0]["data"];

const NONE: Data = {
  counts: { all: 0, unclaimed: 0 },
  unclaimed: [],
  received: [],
  mismatches: [],
  imports: [],
  callbacksOn: false,
  shortcode: "880100",
  autoApprove: false,
  callbacks: { shortcodes: ["880100"], urls: null, warnings: [] },
  setAside: [],
  reversedApprovals: [],
  salesOpenedAt: null,
  likely: {},
};

/** The screen as the server renders it (its forms need a data router). */
async function render(data: Partial<Data>, reply?: Parameters<typeof PaymentsScreen>[0]["reply"]) {
  const element = <PaymentsScreen data={{ ...NONE, ...data }} reply={reply} busy={false} />;
  const handler = createStaticHandler([{ path: "/admin/payments", Component: () => element }]);
  const context = await handler.query(new Request("http://site.test/admin/payments"));
  if (context instanceof Response) throw new Error("unexpected response");
  return renderToStaticMarkup(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />);
}

const preview = (p: Partial<StatementResult["preview"]>): StatementResult["preview"] => ({
  rows: 2,
  added: 0,
  known: 2,
  skipped: [],
  matched: 0,
  coversFrom: null,
  coversTo: null,
  shortcode: null,
  periodSource: null,
  periodNote: null,
  reversals: [],
  dateOrders: [],
  ...p,
});

describe("/admin/payments as staff read it", () => {
  it("lists prompts M-Pesa has not settled (order, amount, phone) and payments whose account number names another order; neither section when empty", async () => {
    const none = await render({});
    expect(none).not.toContain("Prompts M-Pesa has not settled");
    expect(none).not.toContain("Payments naming another order");
    const html = await render({
      unsettled: [{ orderId: "BO-7K2Q9P", kind: "badge", phone: "254722000333", amount: 1300, sentAt: "2026-11-20T09:00:00.000Z", note: "", queries: 12 }],
      clashes: [{ transId: "QKD4E5F6G7", amount: 1300, paidAt: "2026-11-20T09:01:00.000Z", heldBy: { kind: "badge", id: "BO-AAAAAA" }, named: { kind: "merch", id: "MO-BBBBBB" } }],
    });
    expect(html).toContain("Prompts M-Pesa has not settled (1)");
    expect(html).toContain("254722000333");
    expect(html).toContain("No answer from M-Pesa (12 queries)");
    expect(html).toContain('href="/admin/badge-orders?status=all&amp;q=BO-7K2Q9P"');
    expect(html).toContain("Payments naming another order (1)");
    expect(html).toContain('href="/admin/merch-orders?q=MO-BBBBBB"');
  });
  it("an order with a verified payment among the mismatches says why it is there: paid before sales opened, and when", async () => {
    const mismatch: PaymentMismatch = {
      kind: "badge",
      id: "BO-7K2Q9P",
      name: "Grace Achieng",
      code: "QKD4E5F6G7",
      amount: 1300,
      createdAt: "2026-11-20T09:00:00.000Z",
      payment: { state: "verified", receivedAmount: 1300, receivedAt: "2026-10-28T07:15:00.000Z", payerName: "GRACE ACHIENG", beforeSales: true, receipts: [] },
    };
    const html = await render({ mismatches: [mismatch], salesOpenedAt: "2026-10-31T21:00:00.000Z" });
    expect(text(html)).toContain(
      "Payment verified KES 1,300 received Listed because it was paid before sales opened. M-Pesa shows this payment made on 28 Oct 2026, 10:15, before badge sales opened on 1 November 2026: a code from an earlier payment may have been reused. Check it is for this order before approving.",
    );
  });

  it("the same file again: 'Nothing new', and no import button", async () => {
    const html = await render({}, { status: "success", message: "Check the preview, then import.", result: { step: "preview", draftId: "d1", fileName: "statement.csv", preview: preview({}) } });
    expect(text(html)).toContain("Nothing new: all 2 payments in this file are already recorded.");
    expect(html).not.toContain('value="import"');
    expect(importWords(preview({ known: 1 }))).toEqual({ nothing: "Nothing new: the 1 payment in this file is already recorded." });
    expect(importWords(preview({ added: 3, known: 1 }))).toEqual({ button: "Import 3 new payments" });
    expect(importWords(preview({ added: 0, known: 0 }))).toEqual({ nothing: "Nothing to import: no completed payment to this paybill could be read in this file." });
  });

  it("the preview's forms post back to the preview (without JavaScript the page opens there)", async () => {
    const html = await render({}, { status: "success", message: "Check the preview, then import.", result: { step: "preview", draftId: "d1", fileName: "s.csv", preview: preview({ added: 2, known: 0 }) } });
    expect(html).toContain('id="statement-preview"');
    expect(html.match(/action="\/admin\/payments#statement-preview"/g)).toHaveLength(2);
    expect(text(html)).toContain("Import 2 new payments");
  });

  it("a payer's number as M-Pesa sent it: a full one to call, a masked one as it is", async () => {
    const row = (code: string, payerPhone: string): ReceivedPaymentRow => ({
      code,
      amount: 300,
      paidAt: "2026-11-20T09:00:00.000Z",
      payerName: "JANE",
      payerPhone,
      accountRef: "VESPERS",
      source: "statement",
      order: null,
      oddParts: [],
    });
    const html = await render({ received: [row("QA00000001", "254712345678"), row("QA00000002", "2547******678")] });
    expect(html).toContain('<a class="payer-phone" href="tel:+254712345678">254712345678</a>');
    expect(html).toContain('<span class="payer-phone muted">2547******678</span>');
  });
});
