import { plainKitPng } from "../support/kit-png";
import { EventSchema } from "~/features/event-badges/event.schema";
import { getEvent, saveEvent } from "~/features/event-badges/event.server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as c2b from "~/routes/api/mpesa-c2b";
import * as statements from "~/routes/api/mpesa-statements";
import * as mpesaPayments from "~/routes/api/mpesa-payments";
import * as badgeApi from "~/routes/api/badge-orders";
import * as merchApi from "~/routes/api/merch-orders";
import * as orderPage from "~/routes/orders/order";
import * as lookup from "~/routes/orders/lookup";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { CheckoutSchema } from "~/features/merch/merch.schema";
import { FALLBACK_CATALOGUE } from "~/features/merch/merch";
import { saveCatalogue, submitMerchOrder } from "~/features/merch/merch.server";
import {
  attachBadgeAssets,
  changeMerchOrderStatus,
  getBadgeOrder,
  getMerchOrder,
  listBadgeOrders,
  setBadgeOrderStatus,
} from "~/features/reconciliation/orders.server";
import { approveVerifiedOrders, startAutoApprove, stopAutoApprove } from "~/features/reconciliation/auto-approve.server";
import { listPaymentMismatches } from "~/features/reconciliation/matching.server";
import { accountClashes } from "~/features/reconciliation/receipts.server";
import { listReceivedPayments } from "~/features/received-payments/received-payments.server";
import { orderByToken, orderLinkByEmail } from "~/features/reconciliation/order-status.server";
import { NOT_SEEN } from "~/features/reconciliation/order-words";
import { staff } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { ORIGIN, args, formPost, jsonPost, readJson } from "../support/http";
import { freshApp } from "../support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";

const SECRET = "cb-secret-0123456789abcdef";
const KEY = "test-admin-key-0123456789";
const STAFF = staff("203.0.113.9");

let codes = 0;
const nextCode = () => `RC${String(++codes).padStart(8, "0")}`;

const callback = (body: Record<string, unknown>) => {
  const request = jsonPost(`/api/mpesa/c2b/confirmation/${SECRET}`, body);
  return c2b.action({ ...args(request), params: { kind: "confirmation", secret: SECRET } } as never);
};
/** A Daraja confirmation for `code`, paid now (Nairobi time) unless `at` says when. */
const paid = (code: string, amount: number, at = new Date()) => {
  const nairobi = new Date(at.getTime() + 3 * 3_600_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
  return callback({
    TransactionType: "Pay Bill",
    TransID: code,
    TransTime: nairobi,
    TransAmount: `${amount}.00`,
    BusinessShortCode: "880100",
    BillRefNumber: "VESPERS",
    InvoiceNumber: "",
    OrgAccountBalance: "",
    ThirdPartyTransID: "",
    MSISDN: "254712345678",
    FirstName: "JANE",
    MiddleName: "",
    LastName: "WANJIKU",
  });
};

const HEADER =
  "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.";
const nairobiText = (d: Date) => new Date(d.getTime() + 3 * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
const statementLine = (code: string, at: Date, amount: number) =>
  `${code},${nairobiText(at)},${nairobiText(at)},Pay Bill,Completed,"${amount.toLocaleString("en-US")}.00",,,true,Pay Bill Online,2547******678 - JANE WANJIKU,,VESPERS`;
const statement = (...rows: string[]) => ["Street Light Outreach", "Short Code,880100", "", HEADER, ...rows].join("\n");
const importCsv = async (text: string) => {
  const request = new Request(`${ORIGIN}/api/mpesa_statements.php`, {
    method: "POST",
    body: text,
    headers: { "content-type": "text/csv", "X-Admin-Key": KEY },
  });
  return readJson<Record<string, unknown>>(await statements.action(args(request, "10.9.9.9")));
};

const badge = (db: Db, code: string, tierKey = "t3") =>
  submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey, name: "Jane Wanjiru", email: "jane@example.org", paymentReference: code }), null);
const merch = (db: Db, code: string) =>
  submitMerchOrder(
    db,
    CheckoutSchema.parse({ customerName: "Achieng Otieno", customerEmail: "achieng@example.org", customerPhone: "", notes: "", paymentReference: code }),
    [{ itemId: "SL-TOTE", color: null, size: "One size", quantity: 1 }],
  );
const stateOf = async (db: Db, id: string) => (await getBadgeOrder(db, id)).payment!.state;

let png: Buffer;
let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  png = await plainKitPng();
});
afterAll(() => smtp.close());

let db: Db;
beforeEach(async () => {
  db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, ADMIN_KEY: KEY, AUTO_APPROVE_VERIFIED: undefined, EVENT_SALES_OPEN: undefined, SMTP_URL: smtp.url });
  smtp.clear();
  await saveCatalogue(db, FALLBACK_CATALOGUE);
});

describe("payment state of real orders", () => {
  it("unmatched until the callback, then verified; a payment short of the tier is short by the difference", async () => {
    const full = nextCode();
    const low = nextCode();
    const a = await badge(db, full); // Faithful Friend, KES 1,300
    const b = await badge(db, low);
    expect(await stateOf(db, a.id)).toBe("unmatched");
    await paid(full, 1300);
    await paid(low, 1000);
    expect((await getBadgeOrder(db, a.id)).payment).toMatchObject({ state: "verified", receivedAmount: 1300, payerName: "JANE WANJIKU" });
    expect((await getBadgeOrder(db, b.id)).payment).toMatchObject({ state: "short", receivedAmount: 1000 });
    // Paying more than the tier is over, not verified in full.
    const more = nextCode();
    const c = await badge(db, more);
    await paid(more, 2000);
    expect(await stateOf(db, c.id)).toBe("over");
  });

  it("an order placed while callbacks are live, with no such payment a day later, stays unmatched: callbacks alone never call a payer a fake", async () => {
    const seen = nextCode();
    await paid(seen, 500);
    // The first callback arrived three days ago: callbacks have been live since then.
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await db.updateTable("received_payments").set({ received_at: threeDaysAgo }).where("code", "=", seen).execute();
    const fake = nextCode();
    const { id } = await badge(db, fake);
    // Placed just now: the payment may still be on its way.
    expect(await stateOf(db, id)).toBe("unmatched");
    await db.updateTable("badge_orders").set({ created_at: new Date(Date.now() - 2 * 86_400_000).toISOString() }).where("id", "=", id).execute();
    expect(await stateOf(db, id)).toBe("unmatched");
  });

  it("a statement that pays an order by its reference as the account number counts it as matched", async () => {
    const o = await merch(db, nextCode());
    const line = statementLine(nextCode(), new Date(Date.now() - 60_000), 1200).replace(/,VESPERS$/, `,${o.id}`);
    const done = await importCsv(statement(line));
    expect(done.body).toMatchObject({ ok: true, added: 1, matched: 1 });
    expect((await getMerchOrder(db, o.id))!.payment).toMatchObject({ state: "verified", receivedAmount: 1200 });
  });

  it("a payment whose TransID is one order's typed code and whose account number names another stays with the first and is shown to staff naming both", async () => {
    const code = nextCode();
    const first = await badge(db, code);
    const second = await badge(db, nextCode());
    const nairobi = new Date(Date.now() + 3 * 3_600_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
    const answer = await callback({ TransactionType: "Pay Bill", TransID: code, TransTime: nairobi, TransAmount: "1300.00", BusinessShortCode: "880100", BillRefNumber: second.id.toLowerCase(), MSISDN: "254712345678", FirstName: "JANE" });
    expect(answer.status).toBe(200);
    expect(await stateOf(db, first.id)).toBe("verified");
    expect(await stateOf(db, second.id)).toBe("unmatched");
    expect(await accountClashes(db)).toEqual([{ transId: code, amount: 1300, paidAt: expect.any(String), heldBy: { kind: "badge", id: first.id }, named: { kind: "badge", id: second.id } }]);
    // An account number naming the order that holds the code, or no order, is no clash.
    const third = await badge(db, nextCode());
    const own = (await db.selectFrom("payment_codes").select("code").where("order_id", "=", third.id).executeTakeFirstOrThrow()).code;
    await callback({ TransactionType: "Pay Bill", TransID: own, TransTime: nairobi, TransAmount: "1300.00", BusinessShortCode: "880100", BillRefNumber: third.id, MSISDN: "254712345678", FirstName: "JANE" });
    expect((await accountClashes(db)).map((c) => c.transId)).toEqual([code]);
  });

  it("a statement stating no period leaves a missing code unmatched, whatever its rows span; an overlapping import changes nothing", async () => {
    const placed = new Date(Date.now() - 5 * 86_400_000);
    const real = nextCode();
    const fake = nextCode();
    const r = await merch(db, real);
    const f = await merch(db, fake);
    for (const id of [r.id, f.id]) await db.updateTable("merch_orders").set({ ts: placed.toISOString() }).where("id", "=", id).execute();
    const before = new Date(placed.getTime() - 3_600_000);
    const after = new Date(placed.getTime() + 2 * 86_400_000);
    const first = await importCsv(statement(statementLine(real, before, 1200), statementLine(nextCode(), after, 50)));
    expect(first.body).toMatchObject({ ok: true, added: 2, known: 0, matched: 1 });
    expect((await getMerchOrder(db, r.id))!.payment).toMatchObject({ state: "verified", receivedAmount: 1200 });
    expect((await getMerchOrder(db, f.id))!.payment!.state).toBe("unmatched");
    const again = await importCsv(statement(statementLine(real, before, 1200)));
    expect(again.body).toMatchObject({ added: 0, known: 1 });
    expect((await listReceivedPayments(db)).filter((p) => p.code === real)).toHaveLength(1);
    expect((await listPaymentMismatches(db)).map((m) => m.id)).toEqual([]);
  });

  it("the same payment by callback and by statement gives the same answer, whichever came first", async () => {
    const one = nextCode();
    const two = nextCode();
    const a = await badge(db, one);
    const b = await badge(db, two);
    const at = new Date(Date.now() - 60_000);
    await paid(one, 1300, at);
    await importCsv(statement(statementLine(one, at, 1300), statementLine(two, at, 1300)));
    await paid(two, 1300, at);
    // The same but for each receipt's own code.
    const withoutCodes = (p: { receipts: { transId: string }[] }) => ({ ...p, receipts: p.receipts.map(({ transId: _, ...r }) => r) });
    expect(withoutCodes((await getBadgeOrder(db, a.id)).payment)).toEqual(withoutCodes((await getBadgeOrder(db, b.id)).payment));
    expect((await listReceivedPayments(db)).map((p) => [p.code, p.order?.id])).toEqual(
      expect.arrayContaining([
        [one, a.id],
        [two, b.id],
      ]),
    );
  });

  it("an order racing its own callback ends verified either way", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const code = nextCode();
        const [order] = await Promise.all([badge(db, code), paid(code, 1300)]);
        return stateOf(db, order.id);
      }),
    );
    expect(results).toEqual(Array(10).fill("verified"));
  });

  it("a payment made before the event's sales opened is flagged, and approving it takes the tick", async () => {
    db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, ADMIN_KEY: KEY, EVENT_SALES_OPEN: new Date(Date.now() - 86_400_000).toISOString(), SMTP_URL: smtp.url });
    const old = nextCode();
    await paid(old, 1300, new Date(Date.now() - 30 * 86_400_000));
    const { id } = await badge(db, old);
    expect((await getBadgeOrder(db, id)).payment).toMatchObject({ state: "early", beforeSales: true });
    await attachBadgeAssets(db, id, { badge: png, poster: png }, STAFF);
    await expect(setBadgeOrderStatus(db, id, "approved", STAFF)).rejects.toThrow(/made before sales opened/);
  });

  it("the sales opening date staff set on the event record is the one the rule reads", async () => {
    const old = nextCode();
    await paid(old, 1300, new Date(Date.now() - 30 * 86_400_000));
    const { id } = await badge(db, old);
    // No date set anywhere: not 'before sales', though paid long before the order.
    expect((await getBadgeOrder(db, id)).payment).toMatchObject({ state: "early" });
    expect((await getBadgeOrder(db, id)).payment?.beforeSales).toBeFalsy();
    const event = await getEvent(db);
    const opened = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await saveEvent(db, EventSchema.parse({ ...event, time: "", salesOpen: opened, date: "2099-12-31", ...Object.fromEntries(Object.entries(event.tierGoals).map(([k, v]) => [`goal_${k}`, String(v)])) }), STAFF);
    expect((await getBadgeOrder(db, id)).payment).toMatchObject({ state: "early", beforeSales: true });
  });
});

describe("staff lists and approval", () => {
  it("lists filter by payment state and put verified first within pending", async () => {
    const codesInOrder = [nextCode(), nextCode(), nextCode()];
    const ids: string[] = [];
    for (const [i, c] of codesInOrder.entries()) {
      const { id } = await badge(db, c);
      // A minute apart, oldest first: the list's own order is by time.
      await db.updateTable("badge_orders").set({ created_at: new Date(Date.now() - (10 - i) * 60_000).toISOString() }).where("id", "=", id).execute();
      ids.push(id);
    }
    await paid(codesInOrder[0]!, 1300); // the oldest becomes verified
    const listed = await listBadgeOrders(db, { status: "pending", verifiedFirst: true });
    expect(listed.map((o) => o.id)).toEqual([ids[0], ids[2], ids[1]]);
    expect((await listBadgeOrders(db, { payment: "verified" })).map((o) => o.id)).toEqual([ids[0]]);
    expect((await listBadgeOrders(db, { payment: "unmatched" })).map((o) => o.id)).toEqual([ids[2], ids[1]]);
  });

  it("GET lists carry payment {state, receivedAmount, receivedAt, payerName, receipts}", async () => {
    const code = nextCode();
    const m = await merch(db, code);
    // Paid a minute ago (a payment more than 7 days before the order is 'early').
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    await paid(code, 1200, at);
    const res = await merchApi.loader(args(new Request(`${ORIGIN}/api/merch_orders.php`, { headers: { "X-Admin-Key": KEY } })));
    const body = (await readJson<{ orders: { id: string; payment: unknown }[] }>(res)).body;
    expect(body.orders.find((o) => o.id === m.id)!.payment).toEqual({
      state: "verified",
      receivedAmount: 1200,
      receivedAt: at.toISOString(),
      payerName: "JANE WANJIKU",
      receipts: [{ transId: code, amount: 1200, at: at.toISOString(), payerName: "JANE WANJIKU", matchedBy: "code" }],
    });
    const b = await badge(db, nextCode());
    const list = await badgeApi.loader(args(new Request(`${ORIGIN}/api/badge_orders.php`, { headers: { "X-Admin-Key": KEY } })));
    const items = (await readJson<{ items: { id: string; payment: unknown }[] }>(list)).body.items;
    expect(items.find((o) => o.id === b.id)!.payment).toEqual({ state: "unmatched", receivedAmount: null, receivedAt: null, payerName: null, receipts: [] });
  });

  it("approving a short or not_found order is refused until staff tick that they checked; the JSON API takes paymentChecked", async () => {
    const code = nextCode();
    const m = await merch(db, code);
    await paid(code, 700);
    const refused = await changeMerchOrderStatus(db, { id: m.id, status: "approved" }, STAFF).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).message).toBe(
      `M-Pesa shows KES 700 for code ${code}, KES 500 less than the order. Tick 'Approve without a verified payment' to approve it anyway.`,
    );
    expect((await getMerchOrder(db, m.id))!.status).toBe("pending");
    const patch = (body: Record<string, unknown>) =>
      merchApi.action(args(new Request(`${ORIGIN}/api/merch_orders.php`, { method: "PATCH", body: JSON.stringify(body), headers: { "X-Admin-Key": KEY, "content-type": "application/json" } })));
    expect((await patch({ id: m.id, status: "approved" })).status).toBe(409);
    const ok = await patch({ id: m.id, status: "approved", paymentChecked: true });
    expect(ok.status).toBe(200);
    expect((await getMerchOrder(db, m.id))!.status).toBe("approved");
  });
});

describe("AUTO_APPROVE_VERIFIED", () => {
  it("off by default: a verified order waits for staff", async () => {
    const code = nextCode();
    const m = await merch(db, code);
    await paid(code, 1200);
    expect(await approveVerifiedOrders(db)).toEqual({ badges: [], merch: [] });
    expect((await getMerchOrder(db, m.id))!.status).toBe("pending");
  });

  it("on: a verified badge order gets its kit rendered and emailed, a verified merch order is approved; short ones wait; the log says automatic", async () => {
    db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, ADMIN_KEY: KEY, AUTO_APPROVE_VERIFIED: "on", SMTP_URL: smtp.url });
    await saveCatalogue(db, FALLBACK_CATALOGUE);
    startAutoApprove(60_000);
    try {
      const [bc, mc, sc] = [nextCode(), nextCode(), nextCode()];
      const b = await badge(db, bc, "t1");
      const s = await badge(db, sc, "t1");
      await paid(sc, 100);
      await paid(mc, 1200); // before the order: the order's arrival (below) approves it
      await paid(bc, 300); // after the order: the payment's arrival approves it
      await expect.poll(async () => (await getBadgeOrder(db, b.id)).status, { timeout: 20_000 }).toBe("approved");
      // Placed through the API once the pass is idle: nothing but the order's own arrival is left to approve it.
      await expect.poll(async () => (await db.selectFrom("activity").select("id").where("type", "=", "badge_orders.approve").execute()).length).toBe(1);
      await new Promise((r) => setTimeout(r, 1_000));
      const placed = await readJson<{ id: string }>(
        await merchApi.action(
          args(jsonPost("/api/merch_orders.php", { customerName: "Achieng Otieno", customerEmail: "achieng@example.org", paymentReference: mc, items: [{ itemId: "SL-TOTE", size: "One size", quantity: 1 }] })),
        ),
      );
      const m = { id: placed.body.id };
      await expect.poll(async () => (await getMerchOrder(db, m.id))!.status, { timeout: 10_000 }).toBe("approved");
      expect((await getBadgeOrder(db, s.id)).status).toBe("pending");
      const order = await getBadgeOrder(db, b.id);
      expect(order.badgePath).not.toBeNull();
      const log = await db.selectFrom("activity").select(["type", "actor_ip", "meta"]).where("type", "in", ["badge_orders.approve", "merch.order_status"]).execute();
      expect(log).toHaveLength(2);
      for (const entry of log) {
        expect(entry.actor_ip).toBe("system");
        expect(JSON.parse(entry.meta)).toMatchObject({ automatic: "M-Pesa payment verified (AUTO_APPROVE_VERIFIED)" });
      }
      // Running again approves nothing twice.
      expect(await approveVerifiedOrders(db)).toEqual({ badges: [], merch: [] });
    } finally {
      await stopAutoApprove();
    }
  });
});

describe("AUTO_APPROVE_VERIFIED with the pass running: a statement import and a staff link", () => {
  /** The pass kicked at start-up (or by the last step) has ended: from here only what the test does kicks it. */
  const settled = () => new Promise((r) => setTimeout(r, 1_000));
  const kitMails = async () => (await db.selectFrom("outbox").select("id").where("kind", "=", "badge.kit").execute()).length;

  it("an imported statement that pays an order approves it and emails its kit", async () => {
    db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, ADMIN_KEY: KEY, AUTO_APPROVE_VERIFIED: "on", SMTP_URL: smtp.url });
    startAutoApprove(60_000);
    try {
      const code = nextCode();
      const b = await badge(db, code, "t1");
      await settled();
      expect((await getBadgeOrder(db, b.id)).status).toBe("pending");
      expect((await importCsv(statement(statementLine(code, new Date(), 300)))).status).toBe(200);
      await expect.poll(async () => (await getBadgeOrder(db, b.id)).status, { timeout: 15_000 }).toBe("approved");
      expect(await kitMails()).toBe(1);
    } finally {
      await stopAutoApprove();
    }
  });

  it("staff linking a payment to an order through the API approves it", async () => {
    db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, ADMIN_KEY: KEY, AUTO_APPROVE_VERIFIED: "on", SMTP_URL: smtp.url });
    startAutoApprove(60_000);
    try {
      const b = await badge(db, nextCode(), "t1");
      const other = nextCode();
      await paid(other, 300); // typed wrong on the order: nothing links it
      await settled();
      expect((await getBadgeOrder(db, b.id)).status).toBe("pending");
      const res = await mpesaPayments.action(args(jsonPost("/api/mpesa_payments.php", { action: "link", transId: other, orderId: b.id }, { "X-Admin-Key": KEY }), "10.9.9.9"));
      expect(res.status).toBe(200);
      await expect.poll(async () => (await getBadgeOrder(db, b.id)).status, { timeout: 15_000 }).toBe("approved");
      expect(await kitMails()).toBe(1);
    } finally {
      await stopAutoApprove();
    }
  });
});

describe("the supporter's order page", () => {
  it("the link in the 'we received your order' email opens the order with its payment in plain words", async () => {
    const code = nextCode();
    const { id } = await badge(db, code);
    const row = await db.selectFrom("outbox").select(["html_body", "text_body"]).where("kind", "=", "badge.received").executeTakeFirstOrThrow();
    const link = /https?:\/\/[^\s"<]+\/orders\/BO-[0-9A-Z]{6}\?t=[\w-]+/.exec(row.text_body)![0];
    expect(row.html_body).toContain(`/orders/${id}?t=`);
    const url = new URL(link);
    const load = () =>
      orderPage.loader({ ...args(new Request(`${ORIGIN}${url.pathname}${url.search}`)), params: { reference: id } } as never) as Promise<{ data: { order: { payment: unknown } | null }; init: { status: number } }>;
    let page = await load();
    expect(page.init.status).toBe(200);
    expect(page.data.order).toMatchObject({ reference: id, status: "pending", payment: { state: "unmatched" } });
    await paid(code, 1300, new Date(Date.now() - 60_000));
    page = await load();
    expect(page.data.order).toMatchObject({ payment: { state: "verified", receivedAmount: 1300 } });
    // A wrong or missing token, or another order's reference, shows nothing.
    expect(await orderByToken(db, id, "wrong")).toBeNull();
    expect(await orderByToken(db, id, "")).toBeNull();
    expect(await orderByToken(db, "BO-000000", url.searchParams.get("t")!)).toBeNull();
  });

  it("a wrong token or email does the same work for a real order as for an unknown reference (nothing to time)", async () => {
    const { id: badgeId } = await badge(db, nextCode());
    const { id: merchId } = await merch(db, nextCode());
    /** The statements one lookup sends to the database. */
    const statements = async (look: (counted: Db) => Promise<unknown>) => {
      const seen: string[] = [];
      const counted = db.withPlugin({
        transformQuery: (a) => (seen.push(a.node.kind), a.node),
        transformResult: async (a) => a.result,
      });
      expect(await look(counted)).toBeNull();
      return seen;
    };
    for (const real of [badgeId, merchId]) {
      const unknown = real.slice(0, 3) + "ZZZZZZ";
      const wrongToken = await statements((d) => orderByToken(d, real, "wrong-token-0123456789"));
      expect(wrongToken).toEqual(await statements((d) => orderByToken(d, unknown, "wrong-token-0123456789")));
      expect(wrongToken).toEqual(await statements((d) => orderByToken(d, "not-a-reference", "wrong-token-0123456789")));
      expect(wrongToken).toHaveLength(1);
      const wrongEmail = await statements((d) => orderLinkByEmail(d, real, "someone@example.org"));
      expect(wrongEmail).toEqual(await statements((d) => orderLinkByEmail(d, unknown, "someone@example.org")));
      expect(wrongEmail).toHaveLength(1);
    }
  });

  it("/orders finds the page by reference and email (any case), and says the same for a wrong email as for an unknown reference", async () => {
    const { id } = await merch(db, nextCode());
    const link = await orderLinkByEmail(db, id.toLowerCase(), "ACHIENG@example.org");
    expect(link).toMatch(new RegExp(`^/orders/${id}\\?t=`));
    expect(await orderLinkByEmail(db, id, "someone@example.org")).toBeNull();
    const post = (fields: Record<string, string>) => lookup.action(args(formPost("/orders", fields)) as never).catch((e: unknown) => e);
    const found = (await post({ reference: ` ${id.toLowerCase()} `, email: "achieng@example.org" })) as Response;
    expect(found.status).toBe(302);
    expect(found.headers.get("location")).toBe(link);
    const wrong = (await post({ reference: id, email: "someone@example.org" })) as { data: { message: string }; init: { status: number } };
    const unknown = (await post({ reference: "MO-000000", email: "achieng@example.org" })) as { data: { message: string }; init: { status: number } };
    expect(wrong.init.status).toBe(404);
    expect(wrong.data.message).toBe(unknown.data.message);
    expect(wrong.data.message).toContain("We could not find an order with that reference and email.");
    const bad = (await post({ reference: "12345", email: "achieng@example.org" })) as { data: { fieldErrors: Record<string, string[]> }; init: { status: number } };
    expect(bad.init.status).toBe(400);
    expect(bad.data.fieldErrors.reference).toEqual(["Please enter your order reference, e.g. BO-7KQ2MX or MO-4TR8ZD."]);
  });

  it("words: 'Payment received: KES 1,300 on 12 Nov at 19:42' and 'We have not seen this payment yet'", async () => {
    const { paymentWords } = await import("~/features/reconciliation/order-words");
    const order = { amount: 1300, currency: "KES" };
    const receipts = [{ transId: "SKL4Q2ZB7X", amount: 1300, at: "2026-11-12T16:42:00.000Z", payerName: "J", matchedBy: "code" as const }];
    expect(paymentWords({ state: "verified", receivedAmount: 1300, receivedAt: "2026-11-12T16:42:00.000Z", payerName: "J", receipts }, order).headline).toBe(
      "Payment received: KES 1,300 on 12 Nov at 19:42",
    );
    expect(paymentWords({ state: "unmatched", receivedAmount: null, receivedAt: null, payerName: null, receipts: [] }, order).headline).toBe(NOT_SEEN);
    expect(paymentWords({ state: "short", receivedAmount: 1000, receivedAt: "2026-11-12T16:42:00.000Z", payerName: "J", receipts }, order).detail).toContain(
      "KES 300 less than this order's KES 1,300",
    );
  });
});
