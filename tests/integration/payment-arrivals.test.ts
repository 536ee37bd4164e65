import http from "node:http";
import type { AddressInfo } from "node:net";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { PaymentArrivalsBox } from "~/features/received-payments/components/payment-arrivals";
import { PaymentCheckbox } from "~/features/received-payments/components/payment-tag";
import { quietWarning } from "~/features/received-payments/payment-arrivals";
import { paymentArrivals } from "~/features/received-payments/payment-arrivals.server";
import { setBadgeOrderStatus } from "~/features/reconciliation/orders.server";
import { staff } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { loadBadgeOrdersScreen } from "~/routes/admin/badge-orders-page.server";
import { loadPaymentsScreen } from "~/routes/admin/payments.server";
import { answerHealth, forgetReadinessForTests } from "~/server/health.server";
import { get, testContext } from "../support/http";
import { freshApp, testDatabaseKind } from "../support/reset";

/**
 * Payments that say when they stopped: when the last C2B callback, M-Pesa Express answer and
 * statement import arrived, on /admin/payments, the staff home and /readyz; a warning once
 * orders wait while no callback has come for CALLBACKS_QUIET_AFTER; and beside Approve on an
 * order with no payment seen, 'No payment seen yet for this order' with those times.
 */
afterEach(() => {
  vi.useRealTimers();
});

const SECRET = "cb_secret_0123456789abcdef";
const start = new Date("2026-03-01T06:00:00.000Z");
const hours = (h: number) => new Date(start.getTime() + h * 3_600_000);

async function readyz(db: Db) {
  const server = http.createServer((req, res) => {
    if (!answerHealth(req, res, new URL(req.url ?? "/", "http://site.test"), { draining: () => false, db: () => db })) res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    forgetReadinessForTests();
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const callback = (db: Db, code: string, at: Date) =>
  db
    .insertInto("received_payments")
    .values({ code, amount: 100, paid_at: at.toISOString(), payer_name: "A", payer_phone: "", account_ref: "", shortcode: "880100", source: "callback", raw: "{}", received_at: at.toISOString(), odd_parts: "", reversed_at: null, reversed_by: null })
    .execute();

describe(`payment arrivals on ${testDatabaseKind}`, () => {
  it("orders waiting while no callback has come for 6 hours: /admin/payments, the staff home and /readyz warn; a callback clears it", async () => {
    const db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, CALLBACKS_QUIET_AFTER: undefined });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(hours(-48));
    await callback(db, "TKA0000001", hours(-48));
    vi.setSystemTime(start);
    await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", paymentReference: "TKD4BK8D9T" }), null);

    let a = await paymentArrivals(db);
    // Quiet for 48 hours, with an order waiting: warned at once.
    expect(a).toMatchObject({ lastC2bCallbackAt: hours(-48).toISOString(), lastStkCallbackAt: null, lastStatementImportAt: null, ordersWaiting: 1, stale: true, quietHours: 6 });
    expect(quietWarning(a)).toMatch(/^No M-Pesa callback for more than 6 hours \(last: 27 Feb 2026, 09:00 EAT\) while 1 order waits/);
    let ready = await readyz(db);
    expect([ready.status, ready.body.ok, ready.body.degraded]).toEqual([200, true, ["payments"]]);
    expect(ready.body.detail.payments).toMatchObject({ ok: false, lastC2bCallbackAt: hours(-48).toISOString(), ordersWaiting: 1, quietHours: 6 });

    const screen = await loadPaymentsScreen(testContext() as never);
    const html = renderToStaticMarkup(createElement(PaymentArrivalsBox, { arrivals: screen.arrivals }));
    expect(html).toContain("No M-Pesa callback for more than 6 hours");
    expect(html).toContain("Last C2B callback: <span data-arrival=\"c2b\">27 Feb 2026, 09:00 EAT</span>");
    expect(html).toContain("Last statement import: <span data-arrival=\"statement\">never</span>");

    // A callback comes: nothing to warn about.
    vi.setSystemTime(hours(1));
    await callback(db, "TKA0000002", hours(1));
    a = await paymentArrivals(db);
    expect(a).toMatchObject({ lastC2bCallbackAt: hours(1).toISOString(), stale: false });
    expect(quietWarning(a)).toBeNull();
    // Quiet again for 6 hours while the order still waits.
    vi.setSystemTime(hours(7));
    expect((await paymentArrivals(db)).stale).toBe(true);
    ready = await readyz(db);
    expect(ready.body.degraded).toEqual(["payments"]);
  });

  it("with no callbacks configured, or no order waiting, nothing warns; CALLBACKS_QUIET_AFTER sets the time", async () => {
    let db = await freshApp({ MPESA_CALLBACK_SECRET: undefined });
    await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane", email: "jane@example.org", paymentReference: "TKD4BK8D9T" }), null);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(Date.now() + 30 * 3_600_000));
    expect(await paymentArrivals(db)).toMatchObject({ callbacksOn: false, ordersWaiting: 1, stale: false });
    vi.useRealTimers();

    db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, CALLBACKS_QUIET_AFTER: "30m" });
    expect(await paymentArrivals(db)).toMatchObject({ ordersWaiting: 0, stale: false, quietHours: 0.5 });
    await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane", email: "jane@example.org", paymentReference: "TKD4BK8D9T" }), null);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(Date.now() + 29 * 60_000));
    expect((await paymentArrivals(db)).stale).toBe(false);
    vi.setSystemTime(new Date(Date.now() + 2 * 60_000));
    expect((await paymentArrivals(db)).stale).toBe(true);
  });

  it("an order with no payment seen stays approvable without the tick, and beside Approve staff read 'No payment seen yet for this order' with when M-Pesa last reached the site", async () => {
    const db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET });
    await callback(db, "TKA0000003", new Date("2026-02-27T06:00:00.000Z"));
    const { id } = await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane", email: "jane@example.org", paymentReference: "TKD4BK8D9T" }), null);
    const screen = await loadBadgeOrdersScreen(get("/admin/badge-orders?status=all"), new URL("http://localhost/admin/badge-orders?status=all"), testContext() as never);
    const order = screen.orders.find((o) => o.id === id)!;
    expect(order.payment.state).toBe("unmatched");
    expect(order.payment.lastSeen).toEqual({ callbackAt: "2026-02-27T06:00:00.000Z", statementAt: null });
    const html = renderToStaticMarkup(createElement(PaymentCheckbox, { payment: order.payment, id: "p" }));
    expect(html.replace(/<[^>]+>/g, "")).toBe("No payment seen yet for this order (last callback 27 Feb 2026, 09:00 EAT, statement never)");
    expect(html).not.toContain("checkbox");
    await setBadgeOrderStatus(db, id, "approved", staff("10.0.0.42"), { drawKit: true });
    expect((await db.selectFrom("badge_orders").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).toBe("approved");
  });
});
