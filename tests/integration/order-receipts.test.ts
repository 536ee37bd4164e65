import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as c2b from "~/routes/api/mpesa-c2b";
import * as statements from "~/routes/api/mpesa-statements";
import * as receiptsApi from "~/routes/api/mpesa-payments";
import * as badgeApi from "~/routes/api/badge-orders";
import * as merchApi from "~/routes/api/merch-orders";
import * as paymentsPage from "~/routes/admin/payments";
import * as orderPage from "~/routes/orders/order";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { CheckoutSchema } from "~/features/merch/merch.schema";
import { FALLBACK_CATALOGUE } from "~/features/merch/merch";
import { saveCatalogue, submitMerchOrder } from "~/features/merch/merch.server";
import { PAYMENT_CODE_USED } from "~/features/payment-codes/payment-codes.server";
import { approveVerifiedOrders } from "~/features/reconciliation/auto-approve.server";
import { linkByAccount } from "~/features/reconciliation/receipts.server";
import { listPaymentMismatches } from "~/features/reconciliation/matching.server";
import { getBadgeOrder, getMerchOrder, setBadgeOrderStatus, changeMerchOrderStatus } from "~/features/reconciliation/orders.server";
import { paymentWords } from "~/features/reconciliation/order-words";
import { listReceivedPayments } from "~/features/received-payments/received-payments.server";
import { paymentDetail, type PaymentView } from "~/features/received-payments/payment-state";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import { staff } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { drainOutbox } from "~/lib/mail/email.server";
import { ORIGIN, args, formPost, jsonPost, readJson, reply } from "../support/http";
import { freshApp } from "../support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";

// Payments as Safaricom really sends them (shared/docs/mpesa.md): amounts as strings, the
// MSISDN hashed, optional fields null or "null", and the account number (BillRefNumber, the
// statement's A/C No.) as the payer typed it.

const SECRET = "cb-secret-0123456789abcdef";
const KEY = "test-admin-key-0123456789";
const STAFF_IP = "10.0.0.42";
const HASHED = "2f1a7c4b9e0d83f6a5c2b1e4d7f09a3c6b8e5d2f1a4c7b0e9d3f6a2c5b8e1d4f";

const nairobi = (at: Date) => new Date(at.getTime() + 3 * 3_600_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);

/** A Daraja C2B v1 confirmation, by the path staff register. */
async function paid(code: string, amount: string, opts: { account?: string; at?: Date; first?: string } = {}) {
  const body = {
    TransactionType: "Pay Bill",
    TransID: code,
    TransTime: nairobi(opts.at ?? new Date()),
    TransAmount: amount,
    BusinessShortCode: "880100",
    BillRefNumber: opts.account ?? "VESPERS",
    InvoiceNumber: null,
    OrgAccountBalance: "",
    ThirdPartyTransID: "null",
    MSISDN: HASHED,
    FirstName: opts.first ?? "JANE",
    MiddleName: "null",
    LastName: "WANJIKU",
  };
  const res = await c2b.action({ ...args(jsonPost(`/api/pay/c2b/confirmation/${SECRET}`, body)), params: { kind: "confirmation", secret: SECRET } } as never);
  expect(res.status).toBe(200);
}

const HEADER =
  "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.";
const portal = (d: Date) => new Date(d.getTime() + 3 * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
const statementLine = (code: string, at: Date, amount: string, account: string) =>
  `${code},${portal(at)},${portal(at)},Pay Bill from 2547******678 - JOHN OTIENO,Completed,"${amount}",,,true,Pay Bill Online,2547******678 - JOHN OTIENO,,${account}`;
async function importStatement(...rows: string[]) {
  const text = ["Street Light Outreach", "Short Code,880100", "", HEADER, ...rows].join("\n");
  const res = await statements.action(args(new Request(`${ORIGIN}/api/mpesa_statements.php`, { method: "POST", body: text, headers: { "content-type": "text/csv", "X-Admin-Key": KEY } })));
  expect(res.status).toBe(200);
}

const badge = async (db: Db, code: string, tierKey = "t3") =>
  (await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey, name: "Jane Wanjiru", email: "jane@example.org", paymentReference: code }), null)).id;
const merch = async (db: Db, code: string) =>
  (
    await submitMerchOrder(
      db,
      CheckoutSchema.parse({ customerName: "Achieng Otieno", customerEmail: "achieng@example.org", customerPhone: "", notes: "", paymentReference: code }),
      [{ itemId: "SL-TOTE", color: null, size: "One size", quantity: 1 }],
    )
  ).id;
const badgePayment = async (db: Db, id: string) => (await getBadgeOrder(db, id)).payment;
/** An order reference as a payer types it as the account number: lower case, a space for the dash. */
const typedRef = (id: string) => id.replace("-", " ").toLowerCase();

/** POST /api/mpesa_payments.php */
async function api(body: unknown, key = KEY) {
  const res = await receiptsApi.action(args(jsonPost("/api/mpesa_payments.php", body, { "X-Admin-Key": key }), STAFF_IP));
  return readJson<{ ok: boolean; error?: string; order?: { id: string; payment: PaymentView } }>(res);
}

let cookie: string;
/** A form on /admin/payments, sent as a browser without JavaScript sends it. */
async function form(fields: Record<string, string>) {
  const answer = await paymentsPage.action(args(formPost("/admin/payments", fields, { Cookie: cookie }), STAFF_IP));
  return reply(answer as never) as { status: number; data: { status: string; message: string; intent?: string; result?: { payment: PaymentView } } };
}

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(() => smtp.close());

let db: Db;
async function fresh(extra: Record<string, string | undefined> = {}) {
  db = await freshApp({ MPESA_CALLBACK_SECRET: SECRET, ADMIN_KEY: KEY, AUTO_APPROVE_VERIFIED: undefined, EVENT_SALES_OPEN: undefined, MPESA_SHORTCODE: undefined, SMTP_URL: smtp.url, ...extra });
  await saveCatalogue(db, FALLBACK_CATALOGUE);
  cookie = (await createAdminSessionCookie(db, new Request(`${ORIGIN}/admin`), STAFF_IP)).split(";")[0]!;
  smtp.clear();
}
beforeEach(() => fresh());

describe("more than the order's amount", () => {
  it("is over, not verified in full; staff see the difference and the supporter is told the order is paid", async () => {
    const id = await badge(db, "TKB3XY7QPL"); // Faithful Friend, KES 1,300
    await paid("TKB3XY7QPL", "1500.00");
    const payment = await badgePayment(db, id);
    expect(payment).toMatchObject({ state: "over", receivedAmount: 1500 });
    expect(paymentDetail(payment, 1300)).toBe("KES 1,500 received, KES 200 more than the order");
    const words = paymentWords(payment, { amount: 1300, currency: "KES", kind: "badge", reference: id });
    expect(words.detail).toContain("KES 200 more than this order's KES 1,300, so your order is paid");
    expect(words.detail).not.toContain("in full");
    expect((await listPaymentMismatches(db)).map((m) => [m.id, m.payment.state])).toEqual([[id, "over"]]);
  });
});

describe("a second payment (a top-up)", () => {
  it("completes a short order when it is paid with the order's reference as the account number: the receipts add up", async () => {
    const id = await badge(db, "TKB3XY7QPL");
    await paid("TKB3XY7QPL", "1000.00");
    expect(await badgePayment(db, id)).toMatchObject({ state: "short", receivedAmount: 1000 });
    // The order page tells the supporter how to pay the rest so it joins the order.
    const short = paymentWords(await badgePayment(db, id), { amount: 1300, currency: "KES", kind: "badge", reference: id });
    expect(short.detail).toContain(`KES 300 less than this order's KES 1,300. Please pay the difference to paybill 880100 with account number ${id}`);

    await paid("TKC9ZZ1ABC", "300", { account: typedRef(id), first: "JOHN" });
    const payment = await badgePayment(db, id);
    expect(payment).toMatchObject({ state: "verified", receivedAmount: 1300, payerName: "JANE WANJIKU" });
    expect(payment.receipts.map((r) => [r.transId, r.amount, r.payerName, r.matchedBy])).toEqual([
      ["TKB3XY7QPL", 1000, "JANE WANJIKU", "code"],
      ["TKC9ZZ1ABC", 300, "JOHN WANJIKU", "account"],
    ]);
    expect(payment.receivedAt).toBe(payment.receipts[1]!.at);
    expect(paymentWords(payment, { amount: 1300, currency: "KES" }).headline).toMatch(/^Payment received: KES 1,300 in 2 payments, the last on /);
    // The top-up is claimed: not in the unclaimed list, and shown with its order and rule.
    expect((await listReceivedPayments(db, { unclaimed: true })).map((p) => p.code)).toEqual([]);
    expect((await listReceivedPayments(db)).map((p) => [p.code, p.order])).toEqual(
      expect.arrayContaining([["TKC9ZZ1ABC", { kind: "badge", id, matchedBy: "account" }]]),
    );
  });
});

describe("the account number names the order", () => {
  it.each([
    ["lower case with a space", (id: string) => typedRef(id)],
    ["no dash", (id: string) => id.replace("-", "")],
  ])("a paybill payment (%s) is matched to the order whose typed code is wrong; the code's owner cannot use it again", async (_, account) => {
    const id = await merch(db, "QKABCDEFGH"); // a code no payment has
    await paid("TKD1EF2GHI", "1200.00", { account: account(id) });
    const order = await getMerchOrder(db, id);
    expect(order!.payment).toMatchObject({ state: "verified", receivedAmount: 1200, receipts: [{ transId: "TKD1EF2GHI", matchedBy: "account" }] });
    // One payment pays one order: typing its code into another order is refused.
    await expect(badge(db, "TKD1EF2GHI")).rejects.toThrow(PAYMENT_CODE_USED);
    const log = await db.selectFrom("activity").select(["type", "actor_ip", "message"]).where("type", "=", "payments.link").execute();
    expect(log).toEqual([{ type: "payments.link", actor_ip: "system", message: `M-Pesa payment TKD1EF2GHI linked to ${id}: its account number names the order` }]);
  });

  it("from an imported statement's A/C No. as well; an account number naming no order stays unclaimed", async () => {
    const id = await badge(db, "TKB3XY7QPL", "t1"); // KES 300
    const at = new Date(Date.now() - 3_600_000);
    await importStatement(statementLine("TKE5AB6CDE", at, "300.00", id.replace("-", "").toLowerCase()), statementLine("TKE5AB6CDF", at, "300.00", "BO-ZZZZZZ"));
    expect(await badgePayment(db, id)).toMatchObject({ state: "verified", receipts: [{ transId: "TKE5AB6CDE", matchedBy: "account", payerName: "JOHN OTIENO" }] });
    expect((await listReceivedPayments(db, { unclaimed: true })).map((p) => p.code)).toEqual(["TKE5AB6CDF"]);
  });
});

describe("each callback links its own payment only", () => {
  it("a confirmation links the payment it brings, not another unclaimed one naming an order; the background pass's full read links that", async () => {
    const first = await badge(db, "QKAAAAAAAA", "t1"); // a code no payment has
    const second = await badge(db, "QKBBBBBBBB", "t1");
    // A payment naming the first order, stored as a statement or a crash may leave it: unlinked.
    await db
      .insertInto("received_payments")
      .values({ code: "TKL1NK0001", amount: 300, paid_at: new Date().toISOString(), payer_name: "JANE", payer_phone: "", account_ref: first, shortcode: "880100", source: "statement", raw: "{}", received_at: new Date(Date.now() - 3_600_000).toISOString(), odd_parts: "" })
      .execute();
    await paid("TKL1NK0002", "300.00", { account: typedRef(second) });
    expect(await badgePayment(db, second)).toMatchObject({ state: "verified", receipts: [{ transId: "TKL1NK0002", matchedBy: "account" }] });
    expect(await badgePayment(db, first)).toMatchObject({ state: "unmatched", receipts: [] });
    // Read from the last hour's arrivals on: the older one is not read.
    expect(await linkByAccount(db, undefined, { receivedSince: new Date(Date.now() - 60_000).toISOString() })).toEqual([]);
    expect(await linkByAccount(db)).toEqual([{ transId: "TKL1NK0001", kind: "badge", orderId: first }]);
    expect(await badgePayment(db, first)).toMatchObject({ state: "verified", receipts: [{ transId: "TKL1NK0001", matchedBy: "account" }] });
  });

  it("a payment whose account number names no order is not looked up; one naming an order is, even by a list of several", async () => {
    const id = await badge(db, "QKCCCCCCCC", "t1");
    await paid("TKL1NK0003", "300.00", { account: id });
    // Linked by the callback already: asking again links nothing twice.
    expect(await linkByAccount(db, undefined, { payments: [{ code: "TKL1NK0003", accountRef: id }] })).toEqual([]);
    expect(await linkByAccount(db, undefined, { payments: [{ code: "TKL1NK0003", accountRef: "VESPERS" }] })).toEqual([]);
    expect(await badgePayment(db, id)).toMatchObject({ state: "verified", receipts: [{ transId: "TKL1NK0003", matchedBy: "account" }] });
  });
});

describe("a code one character off", () => {
  it("offers the unclaimed payment to staff as 'probably this order' (O typed for 0), on the order and the payments screen, and never approves it", async () => {
    await fresh({ AUTO_APPROVE_VERIFIED: "on" });
    const id = await badge(db, "SKLOQ2ZB7X"); // the letter O
    await paid("SKL0Q2ZB7X", "1300.00"); // the digit 0
    const payment = await badgePayment(db, id);
    expect(payment).toMatchObject({ state: "unmatched", receivedAmount: null, receipts: [] });
    expect(payment.suggestions).toEqual([{ transId: "SKL0Q2ZB7X", amount: 1300, at: expect.any(String), payerName: "JANE WANJIKU" }]);
    expect(await approveVerifiedOrders(db)).toEqual({ badges: [], merch: [] });
    expect((await getBadgeOrder(db, id)).status).toBe("pending");
    expect((await listPaymentMismatches(db)).map((m) => m.id)).toEqual([id]);
    const screen = await paymentsPage.loader(args(new Request(`${ORIGIN}/admin/payments`, { headers: { Cookie: cookie } })));
    expect(screen!.likely).toEqual({ SKL0Q2ZB7X: [{ kind: "badge", id }] });
    // One character off but another amount, or paid long before the order, is not offered.
    const other = await badge(db, "TKR1ST2UVW");
    await paid("TKR1ST2UVX", "1000.00");
    await paid("TKR1ST2UVY", "1300.00", { at: new Date(Date.now() - 5 * 86_400_000) });
    expect((await badgePayment(db, other)).suggestions).toBeUndefined();
  });
});

describe("staff link, unlink and mark a code wrong on /admin/payments", () => {
  it("link an unclaimed payment: the order is verified, the action is logged with the staff actor; unlink puts it back", async () => {
    const id = await badge(db, "SKLOQ2ZB7X");
    await paid("SKL0Q2ZB7X", "1300.00");
    const linked = await form({ intent: "link", transId: " skl0q2zb7x ", orderId: typedRef(id) });
    expect(linked.status).toBe(200);
    expect(linked.data).toMatchObject({ status: "success", intent: "link" });
    expect(linked.data.message).toBe(`Payment SKL0Q2ZB7X linked to ${id}. ${id} now: Payment verified (KES 1,300 received).`);
    expect(await badgePayment(db, id)).toMatchObject({ state: "verified", receipts: [{ transId: "SKL0Q2ZB7X", matchedBy: "staff" }] });
    expect((await listReceivedPayments(db, { unclaimed: true })).map((p) => p.code)).toEqual([]);

    const unlinked = await form({ intent: "unlink", transId: "SKL0Q2ZB7X", orderId: id });
    expect(unlinked.data.message).toBe(`Payment SKL0Q2ZB7X unlinked from ${id}. ${id} now: Payment not seen yet.`);
    const after = await badgePayment(db, id);
    expect(after).toMatchObject({ state: "unmatched", receipts: [] });
    // Staff said it is not this order's: it is no longer offered for it.
    expect(after.suggestions).toBeUndefined();
    expect((await listReceivedPayments(db, { unclaimed: true })).map((p) => p.code)).toEqual(["SKL0Q2ZB7X"]);

    const log = await db.selectFrom("activity").select(["type", "actor_ip", "meta"]).where("type", "like", "payments.%").orderBy("id").execute();
    expect(log.map((l) => [l.type, l.actor_ip, JSON.parse(l.meta).transId])).toEqual([
      ["payments.link", STAFF_IP, "SKL0Q2ZB7X"],
      ["payments.unlink", STAFF_IP, "SKL0Q2ZB7X"],
    ]);
  });

  it("unlinking a payment matched by its code frees it for the order it really pays", async () => {
    const wrong = await merch(db, "TKF7GH8IJK");
    await paid("TKF7GH8IJK", "1200.00");
    expect((await getMerchOrder(db, wrong))!.payment.state).toBe("verified");
    await form({ intent: "unlink", transId: "TKF7GH8IJK", orderId: wrong });
    expect((await getMerchOrder(db, wrong))!.payment).toMatchObject({ state: "unmatched", receipts: [] });
    const right = await merch(db, "QKABCDEFGH");
    await form({ intent: "link", transId: "TKF7GH8IJK", orderId: right });
    expect((await getMerchOrder(db, right))!.payment).toMatchObject({ state: "verified", receipts: [{ transId: "TKF7GH8IJK", matchedBy: "staff" }] });
    expect((await getMerchOrder(db, wrong))!.payment.state).toBe("unmatched");
  });

  it("a payment another order holds is refused with a sentence saying which", async () => {
    const owner = await badge(db, "TKB3XY7QPL");
    const other = await badge(db, "QKABCDEFGH");
    await paid("TKB3XY7QPL", "1300.00");
    const refused = await form({ intent: "link", transId: "TKB3XY7QPL", orderId: other });
    expect(refused.status).toBe(409);
    expect(refused.data).toMatchObject({ status: "error", intent: "link" });
    expect(refused.data.message).toBe(
      `Payment TKB3XY7QPL already belongs to order ${owner} (the code typed with that order). A payment pays one order: unlink it from ${owner} first if it is wrong there.`,
    );
    expect((await badgePayment(db, other)).state).toBe("unmatched");
    expect((await badgePayment(db, owner)).state).toBe("verified");
    // Nothing to unlink where it is not linked; unknown orders and payments are named.
    expect((await form({ intent: "unlink", transId: "TKB3XY7QPL", orderId: other })).data.message).toBe(
      `Payment TKB3XY7QPL is not linked to order ${other}: nothing to unlink.`,
    );
    expect((await form({ intent: "link", transId: "TKB3XY7QPL", orderId: "BO-000000" })).status).toBe(404);
    const missing = await form({ intent: "link", transId: "TKZ0000000", orderId: other });
    expect(missing.status).toBe(404);
    expect(missing.data.message).toMatch(/^No payment TKZ0000000 has reached the site/);
    const bad = await form({ intent: "link", transId: "12", orderId: "someone" });
    expect(bad.status).toBe(400);
    expect(bad.data.message).toBe("Enter the M-Pesa receipt number of the payment, e.g. SKL4Q2ZB7X.");
  });

  it("mark an order's code wrong: the supporter is emailed what to do, a payment with that code is no longer the order's, the page says so in plain words", async () => {
    const id = await badge(db, "SKL4Q2ZB7X");
    await drainOutbox();
    smtp.clear();
    const done = await form({ intent: "code-wrong", orderId: id });
    expect(done.status).toBe(200);
    expect(done.data.message).toBe(`Code SKL4Q2ZB7X of ${id} marked wrong; the supporter is emailed what to do. ${id} now: Payment not seen yet.`);
    await drainOutbox();
    await expect.poll(() => smtp.messages.length).toBe(1);
    const { envelope, mail } = smtp.messages[0]!;
    expect(envelope.to).toEqual(["jane@example.org"]);
    expect(mail.subject).toBe(`About the M-Pesa code for your order ${id}`);
    expect(mail.text).toContain("The M-Pesa code given with it, SKL4Q2ZB7X, does not match any payment we have received");
    expect(mail.text).toContain("please reply to this email with the confirmation message M-Pesa sent you");
    expect(mail.text).toContain(`pay KES 1,300 to paybill 880100 with account number ${id} (your order reference)`);
    expect(mail.text).toMatch(new RegExp(`/orders/${id}\\?t=`));
    expect(mail.text).not.toMatch(/fake|fraud/i);

    const payment = await badgePayment(db, id);
    expect(payment).toMatchObject({ state: "unmatched", codeWrong: true });
    const page = paymentWords(payment, { amount: 1300, currency: "KES", kind: "badge", reference: id });
    expect(page.detail).toContain("does not match any payment we have received. We have emailed you what to do");
    // A payment with that code, when it comes, is not this order's: it waits, unclaimed, for staff to link it where it belongs.
    await paid("SKL4Q2ZB7X", "1300.00");
    expect((await badgePayment(db, id)).receipts).toEqual([]);
    expect((await listReceivedPayments(db, { unclaimed: true })).map((p) => p.code)).toEqual(["SKL4Q2ZB7X"]);
    const rightful = await merch(db, "QKABCDEFGH");
    await form({ intent: "link", transId: "SKL4Q2ZB7X", orderId: rightful });
    expect((await getMerchOrder(db, rightful))!.payment).toMatchObject({ state: "over", receipts: [{ transId: "SKL4Q2ZB7X", matchedBy: "staff" }] });
    // Twice is refused, and so is a code whose payment counts for the order.
    expect((await form({ intent: "code-wrong", orderId: id })).status).toBe(409);
    const counted = await badge(db, "TKS1TU2VWX");
    await paid("TKS1TU2VWX", "1300.00");
    expect((await form({ intent: "code-wrong", orderId: counted })).data.message).toBe(
      `M-Pesa shows a payment with code TKS1TU2VWX for order ${counted}. If that payment is not this order's, unlink it instead.`,
    );
    const log = await db.selectFrom("activity").select(["actor_ip"]).where("type", "=", "payments.code_wrong").execute();
    expect(log).toEqual([{ actor_ip: STAFF_IP }]);
  });
});

describe("POST /api/mpesa_payments.php", () => {
  it("links and unlinks, answering {ok, order} with the order's payment; errors are JSON with a real status", async () => {
    const id = await merch(db, "QKABCDEFGH");
    await paid("TKG1HI2JKL", "1200");
    const linked = await api({ action: "link", transId: "TKG1HI2JKL", orderId: id });
    expect(linked.status).toBe(200);
    expect(linked.body.ok).toBe(true);
    expect(linked.body.order!.id).toBe(id);
    expect(linked.body.order!.payment).toEqual({
      state: "verified",
      receivedAmount: 1200,
      receivedAt: expect.any(String),
      payerName: "JANE WANJIKU",
      receipts: [{ transId: "TKG1HI2JKL", amount: 1200, at: expect.any(String), payerName: "JANE WANJIKU", matchedBy: "staff" }],
    });
    const again = await api({ action: "link", transId: "TKG1HI2JKL", orderId: id });
    expect(again.status).toBe(200);

    const other = await badge(db, "QKABCDEFGJ");
    const taken = await api({ action: "link", transId: "TKG1HI2JKL", orderId: other });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ ok: false, error: expect.stringMatching(new RegExp(`^Payment TKG1HI2JKL already belongs to order ${id} \\(linked by staff\\)`)) });

    const unlinked = await api({ action: "unlink", transId: "TKG1HI2JKL", orderId: id });
    expect(unlinked.body.order!.payment).toMatchObject({ state: "unmatched", receipts: [] });
    const log = await db.selectFrom("activity").select(["type", "actor_ip"]).where("type", "like", "payments.%").orderBy("id").execute();
    expect(log).toEqual([
      { type: "payments.link", actor_ip: STAFF_IP },
      { type: "payments.unlink", actor_ip: STAFF_IP },
    ]);

    expect((await api({ action: "move", transId: "TKG1HI2JKL", orderId: id })).body).toEqual({ ok: false, error: "action must be link or unlink." });
    expect((await api({ action: "link", transId: "TKG1HI2JKL", orderId: "MO-000000" })).status).toBe(404);
    expect((await api({ action: "link", transId: "TKG1HI2JKL", orderId: id }, "wrong-key-0123456789")).status).toBe(401);
    const notJson = await receiptsApi.action(args(new Request(`${ORIGIN}/api/mpesa_payments.php`, { method: "POST", body: "{", headers: { "content-type": "application/json", "X-Admin-Key": KEY } })));
    expect(notJson.status).toBe(400);
    expect((await readJson(notJson)).body).toEqual({ ok: false, error: "Request body must be valid JSON." });
  });
});

describe("one receipt, one order, under concurrency", () => {
  it("two links of one receipt at once: one wins, the other is refused", async () => {
    for (let round = 0; round < 5; round++) {
      const code = `TKH${round}AB3CDE`;
      const [a, b] = [await badge(db, `QKA${round}CDEFGH`), await merch(db, `QKB${round}CDEFGH`)];
      await paid(code, "1300");
      const answers = await Promise.all([api({ action: "link", transId: code, orderId: a }), api({ action: "link", transId: code, orderId: b })]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const rows = await db.selectFrom("order_receipts").select(["order_id"]).where("trans_id", "=", code).execute();
      expect(rows).toHaveLength(1);
      const winner = answers.find((r) => r.status === 200)!.body.order!.id;
      expect(rows[0]!.order_id).toBe(winner);
    }
  });

  it("a link and an order typing the same code at once: the receipt ends with exactly one order", async () => {
    for (let round = 0; round < 5; round++) {
      const code = `TKJ${round}AB3CDE`;
      const waiting = await badge(db, `QKC${round}CDEFGH`);
      await paid(code, "1300");
      const [linked, placed] = await Promise.allSettled([api({ action: "link", transId: code, orderId: waiting }), badge(db, code)]);
      const linkWon = linked.status === "fulfilled" && linked.value.status === 200;
      const orderWon = placed.status === "fulfilled";
      expect([linkWon, orderWon].filter(Boolean)).toHaveLength(1);
      const holders =
        (await db.selectFrom("order_receipts").select("order_id").where("trans_id", "=", code).execute()).length +
        (await db.selectFrom("payment_codes").select("order_id").where("code", "=", code).execute()).length;
      expect(holders).toBe(1);
      if (!orderWon) expect((placed as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
    }
  });
});

describe("a payment made long before the order", () => {
  it("is flagged early on a merch order (more than 7 days before) and approving it takes the tick", async () => {
    const id = await merch(db, "TKK1LM2NOP");
    await paid("TKK1LM2NOP", "1200.00", { at: new Date(Date.now() - 10 * 86_400_000) });
    const payment = (await getMerchOrder(db, id))!.payment;
    expect(payment).toMatchObject({ state: "early", receivedAmount: 1200 });
    expect(payment.beforeSales).toBeUndefined();
    expect(paymentDetail(payment, 1200)).toBe("KES 1,200 received; paid more than 7 days before the order");
    await expect(changeMerchOrderStatus(db, { id, status: "approved" }, staff("10.0.0.1"))).rejects.toThrow(
      "The payment with code TKK1LM2NOP was made more than 7 days before the order. Tick 'Approve without a verified payment' to approve it anyway.",
    );
    // A week or less before is not.
    const recent = await merch(db, "TKK1LM2NOQ");
    await paid("TKK1LM2NOQ", "1200.00", { at: new Date(Date.now() - 6 * 86_400_000) });
    expect((await getMerchOrder(db, recent))!.payment.state).toBe("verified");
  });

  it("is flagged early on a badge order paid before sales opened, keeping beforeSales for existing clients", async () => {
    await fresh({ EVENT_SALES_OPEN: new Date(Date.now() - 2 * 86_400_000).toISOString() });
    const id = await badge(db, "TKL1MN2OPQ");
    await paid("TKL1MN2OPQ", "1300.00", { at: new Date(Date.now() - 3 * 86_400_000) });
    const payment = await badgePayment(db, id);
    expect(payment).toMatchObject({ state: "early", beforeSales: true });
    expect(paymentDetail(payment, 1300)).toBe("KES 1,300 received; paid before sales opened");
    await expect(setBadgeOrderStatus(db, id, "approved", staff("10.0.0.1"))).rejects.toThrow(/made before sales opened/);
  });
});

describe("the payment object in the staff JSON lists", () => {
  it("carries state, receivedAmount, receivedAt, payerName and receipts {transId, amount, at, payerName, matchedBy} on both lists", async () => {
    const b = await badge(db, "TKM1NO2PQR");
    await paid("TKM1NO2PQR", "1000.00");
    await paid("TKM9NO2PQR", "500.00", { account: b.replace("-", ""), first: "JOHN" });
    const m = await merch(db, "TKN1OP2QRS");
    await paid("TKN1OP2QRS", "1200.00");
    const receipt = { transId: expect.any(String), amount: expect.any(Number), at: expect.any(String), payerName: expect.any(String), matchedBy: expect.any(String) };

    const badges = (await readJson<{ items: { id: string; payment: PaymentView }[] }>(await badgeApi.loader(args(new Request(`${ORIGIN}/api/badge_orders.php`, { headers: { "X-Admin-Key": KEY } })))))
      .body.items;
    const bp = badges.find((o) => o.id === b)!.payment;
    expect(Object.keys(bp).sort()).toEqual(["payerName", "receipts", "receivedAmount", "receivedAt", "state"]);
    expect(bp).toMatchObject({ state: "over", receivedAmount: 1500, payerName: "JANE WANJIKU" });
    expect(bp.receipts).toEqual([receipt, receipt]);
    expect(bp.receipts.map((r) => [r.transId, r.amount, r.matchedBy])).toEqual([
      ["TKM1NO2PQR", 1000, "code"],
      ["TKM9NO2PQR", 500, "account"],
    ]);
    expect(bp.receivedAt).toBe(bp.receipts[1]!.at);

    const merchList = (await readJson<{ orders: { id: string; payment: PaymentView }[] }>(await merchApi.loader(args(new Request(`${ORIGIN}/api/merch_orders.php`, { headers: { "X-Admin-Key": KEY } })))))
      .body.orders;
    expect(merchList.find((o) => o.id === m)!.payment).toEqual({
      state: "verified",
      receivedAmount: 1200,
      receivedAt: expect.any(String),
      payerName: "JANE WANJIKU",
      receipts: [{ transId: "TKN1OP2QRS", amount: 1200, at: expect.any(String), payerName: "JANE WANJIKU", matchedBy: "code" }],
    });
  });
});

describe("AUTO_APPROVE_VERIFIED", () => {
  it("approves verified orders only: an account-number match in full is approved; over, early and short ones wait", async () => {
    await fresh({ AUTO_APPROVE_VERIFIED: "on" });
    const exact = await merch(db, "QKABCDEFGH");
    await paid("TKP1QR2STU", "1200.00", { account: exact.toLowerCase() });
    const over = await merch(db, "TKP2QR2STU");
    await paid("TKP2QR2STU", "1500.00");
    const early = await merch(db, "TKP3QR2STU");
    await paid("TKP3QR2STU", "1200.00", { at: new Date(Date.now() - 30 * 86_400_000) });
    const short = await merch(db, "TKP4QR2STU");
    await paid("TKP4QR2STU", "200.00");
    expect(await approveVerifiedOrders(db)).toEqual({ badges: [], merch: [exact] });
    for (const id of [over, early, short]) expect((await getMerchOrder(db, id))!.status).toBe("pending");
  });
});

describe("the supporter's order page", () => {
  it("says what each state means in plain words, never 'fake'", async () => {
    const id = await badge(db, "TKQ1RS2TUV");
    await paid("TKQ1RS2TUV", "1500.00");
    const url = `/orders/${id}?t=${(await db.selectFrom("badge_orders").select("asset_token").where("id", "=", id).executeTakeFirstOrThrow()).asset_token}`;
    const page = (await orderPage.loader({ ...args(new Request(`${ORIGIN}${url}`)), params: { reference: id } } as never)) as unknown as {
      data: { order: { payment: PaymentView; amount: number; currency: string; kind: "badge"; reference: string } };
    };
    const order = page.data.order;
    expect(order.payment.state).toBe("over");
    expect(paymentWords(order.payment, order).detail).toContain("your order is paid");
    const base = { receivedAmount: 1300, receivedAt: new Date().toISOString(), payerName: "JANE", receipts: [] };
    for (const state of ["verified", "short", "over", "early", "reversed", "unmatched", "not_found"] as const) {
      const words = paymentWords({ ...base, state, ...(state === "unmatched" || state === "not_found" ? { receivedAmount: null, receivedAt: null } : {}) }, order);
      expect(`${words.headline} ${words.detail}`).not.toMatch(/fake|fraud|suspect/i);
      if (state !== "verified") expect(words.detail).not.toContain("in full");
    }
  });
});
