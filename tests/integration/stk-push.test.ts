import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nairobiStamp, startDarajaFake } from "../support/daraja-fake.mjs";
import * as stkCallback from "~/routes/api/stk-callback";
import * as c2b from "~/routes/api/mpesa-c2b";
import * as badgeApi from "~/routes/api/badge-orders";
import * as merchApi from "~/routes/api/merch-orders";
import * as stkPushApi from "~/routes/api/stk-push";
import * as mpesaPayments from "~/routes/api/mpesa-payments";
import { paymentWords } from "~/features/reconciliation/order-words";
import * as eventRoute from "~/routes/event/event";
import * as orderRoute from "~/routes/orders/order";
import type { StkPanelData } from "~/features/stk-push/components/stk-panel";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { CheckoutSchema } from "~/features/merch/merch.schema";
import { saveCatalogue, submitMerchOrder } from "~/features/merch/merch.server";
import { FALLBACK_CATALOGUE } from "~/features/merch/merch";
import { getBadgeOrder, getMerchOrder } from "~/features/reconciliation/orders.server";
import { approveVerifiedOrders, startAutoApprove, stopAutoApprove } from "~/features/reconciliation/auto-approve.server";
import { startStkQueries, stopStkQueries } from "~/features/reconciliation/stk-queries.server";
import { linkByAccount } from "~/features/reconciliation/receipts.server";
import { loadPaymentsScreen } from "~/routes/admin/payments.server";
import { askAboutQuietPushes, sendStkPush, stkStatusOf, unknownPrompts, PHONE_PROMPTS_REFUSED, WINDOW_MS } from "~/features/stk-push/stk-push.server";
import { INVALID_PHONE_WORDS, inSafaricomRange, mpesaPhone, resultWords } from "~/features/stk-push/stk-push";
import { forgetDarajaTokensForTests, setDarajaTimeoutForTests } from "~/features/stk-push/daraja-client.server";
import type { Db } from "~/lib/db/db.server";
import { args, formPost, get, jsonPost, readJson, thrown } from "../support/http";
import { freshApp } from "../support/reset";
import { startStkCallbackBridge } from "../support/stk-bridge";

const SECRET = "stk-callback-secret-0123456789";

let fake: Awaited<ReturnType<typeof startDarajaFake>>;
let bridge: Awaited<ReturnType<typeof startStkCallbackBridge>>;
let bridgeUrl = "";

beforeAll(async () => {
  fake = await startDarajaFake();
  bridge = await startStkCallbackBridge();
  bridgeUrl = bridge.url;
});
afterAll(async () => {
  await fake.close();
  await bridge.close();
});

const siteEnv = (more: Record<string, string> = {}) => ({
  PUBLIC_URL: bridgeUrl,
  DARAJA_BASE_URL: fake.url,
  DARAJA_CONSUMER_KEY: fake.consumerKey,
  DARAJA_CONSUMER_SECRET: fake.consumerSecret,
  DARAJA_PASSKEY: fake.passkey,
  MPESA_CALLBACK_SECRET: SECRET,
  MPESA_SHORTCODE: "880100",
  ...more,
});

let codes = 0;
const nextCode = () => `SK${String(++codes).padStart(8, "0")}`;

/** A C2B confirmation as Safaricom sends it (TransTime in Nairobi time, MSISDN and name given), through the route: its status. */
async function confirmC2b(fields: Record<string, string | null>) {
  const TransTime = nairobiStamp();
  const body = { TransactionType: "Pay Bill", TransTime, MSISDN: "254712345678", FirstName: "JANE", ...fields };
  const request = jsonPost(`/api/pay/c2b/confirmation/${SECRET}`, body);
  return (await c2b.action({ ...args(request), params: { kind: "confirmation", secret: SECRET } } as never)).status;
}

type Kind = "badge" | "merch";
const ORDERS: Record<Kind, { place: (db: Db) => Promise<string>; amount: number; state: (db: Db, id: string) => Promise<{ state: string; status: string }> }> = {
  badge: {
    amount: 1300,
    place: async (db) =>
      (await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", phone: "0712345678", paymentReference: nextCode() }), null)).id,
    state: async (db, id) => {
      const o = await getBadgeOrder(db, id);
      return { state: o.payment.state, status: o.status };
    },
  },
  merch: {
    amount: 0,
    place: async (db) => {
      if (!(await db.selectFrom("merch_items").select("id").limit(1).executeTakeFirst())) await saveCatalogue(db, FALLBACK_CATALOGUE);
      return (
        await submitMerchOrder(
          db,
          CheckoutSchema.parse({ customerName: "Achieng Otieno", customerEmail: "achieng@example.org", customerPhone: "0712345678", notes: "", paymentReference: nextCode() }),
          [{ itemId: "SL-TOTE", color: null, size: "One size", quantity: 1 }],
        )
      ).id;
    },
    state: async (db, id) => {
      const o = (await getMerchOrder(db, id))!;
      return { state: o.payment.state, status: o.status };
    },
  },
};

let db: Db;
beforeEach(async () => {
  db = await freshApp(siteEnv());
  fake.set({ push: "ok", outcome: null, resultCodeAs: "number", pushDelayMs: 0, query: "ok", refusePhone: null });
  forgetDarajaTokensForTests();
});
afterEach(() => setDarajaTimeoutForTests(null));

const push = (kind: Kind, orderId: string, phone = "0712 345 678", ip = "10.0.0.1") => sendStkPush(db, { kind, orderId, phone, ip });

describe.each(["badge", "merch"] as const)("M-Pesa Express for a %s order", (kind) => {
  const o = ORDERS[kind];

  it("paid: the callback's receipt verifies the order's payment (and AUTO_APPROVE_VERIFIED approves it)", async () => {
    db = await freshApp(siteEnv({ AUTO_APPROVE_VERIFIED: "on" }));
    const id = await o.place(db);
    // The order's typed code pays nothing: the prompt pays it.
    const sent = await push(kind, id, "+254 712 345 678");
    expect(sent).toMatchObject({ state: "sent", checkoutRequestId: expect.stringMatching(/^ws_CO_/) });
    const prompt = fake.latest(id)!;
    expect(prompt).toMatchObject({ phone: "254712345678", accountReference: id, shortcode: "880100" });
    if (kind === "badge") expect(prompt.amount).toBe(1300);
    await fake.answer(prompt.checkoutRequestId, "paid");
    expect(fake.state.callbacks.at(-1)).toMatchObject({ status: 200 });
    const status = (await stkStatusOf(db, id))!;
    expect(status).toMatchObject({ state: "paid", resultCode: "0", receipt: prompt.receipt });
    expect(resultWords(status)).toBe(`Paid: M-Pesa receipt ${prompt.receipt}.`);
    expect((await o.state(db, id)).state).toBe("verified");
    await approveVerifiedOrders(db);
    expect((await o.state(db, id)).status).toBe("approved");
  });

  it.each([
    [1032, "cancelled", "Cancelled on the phone: no money was taken."],
    [1037, "timeout", "The phone was not reached, or the prompt timed out: no money was taken."],
    [2001, "failed", "Not paid: the M-Pesa PIN was wrong."],
    [1, "failed", "Not paid: the M-Pesa balance is not enough for this payment."],
  ])("ResultCode %s: %s, said in words, and the order stays unpaid", async (code, state, words) => {
    fake.set({ resultCodeAs: code === 1 ? "string" : "number" });
    const id = await o.place(db);
    const sent = await push(kind, id);
    if (sent.state !== "sent") throw new Error(sent.state);
    await fake.answer(sent.checkoutRequestId, code);
    const status = (await stkStatusOf(db, id))!;
    expect(status).toMatchObject({ state, resultCode: String(code), receipt: null });
    expect(resultWords(status)).toBe(words);
    expect((await o.state(db, id)).state).not.toBe("verified");
  });

  it("no callback: asked about 90 s later, once across processes; the receipt then comes by C2B with the order's reference", async () => {
    const id = await o.place(db);
    const sent = await push(kind, id);
    if (sent.state !== "sent") throw new Error(sent.state);
    // Not yet due.
    expect(await askAboutQuietPushes(db)).toEqual({ asked: 0, settled: 0, paid: 0 });
    const later = new Date(Date.now() + 91_000);
    // The supporter has not answered: 'being processed', asked again later.
    expect(await askAboutQuietPushes(db, later)).toEqual({ asked: 1, settled: 0, paid: 0 });
    const paid = await fake.answer(sent.checkoutRequestId, "never");
    const queries = fake.state.queries;
    const muchLater = new Date(Date.now() + 130_000);
    // Two processes at once: one asks.
    const [a, b] = await Promise.all([askAboutQuietPushes(db, muchLater), askAboutQuietPushes(db, muchLater)]);
    expect(a.asked + b.asked).toBe(1);
    expect(a.paid + b.paid).toBe(1);
    expect(fake.state.queries - queries).toBe(1);
    expect(await stkStatusOf(db, id)).toMatchObject({ state: "paid", resultCode: "0", receipt: null });
    expect((await o.state(db, id)).state).not.toBe("verified");
    // The C2B confirmation names the prompt's account number: the order's reference.
    expect(await confirmC2b({
      TransID: paid.receipt,
      TransAmount: `${paid.amount}.00`,
      BusinessShortCode: "880100",
      BillRefNumber: id,
      MSISDN: "254712345678",
      FirstName: "JANE",
    })).toBe(200);
    await linkByAccount(db);
    expect((await o.state(db, id)).state).toBe("verified");
  });

  it("the same callback twice, or a callback after the query settled it, changes nothing", async () => {
    const id = await o.place(db);
    const sent = await push(kind, id);
    if (sent.state !== "sent") throw new Error(sent.state);
    await fake.answer(sent.checkoutRequestId, 1032);
    const before = await db.selectFrom("stk_pushes").selectAll().where("order_id", "=", id).executeTakeFirstOrThrow();
    expect(await fake.resend(sent.checkoutRequestId)).toBe(200);
    expect(await db.selectFrom("stk_pushes").selectAll().where("order_id", "=", id).executeTakeFirstOrThrow()).toEqual(before);

    const second = await push(kind, id);
    if (second.state !== "sent") throw new Error(second.state);
    const paid = await fake.answer(second.checkoutRequestId, "paid");
    expect(await fake.resend(second.checkoutRequestId)).toBe(200);
    expect(await db.selectFrom("received_payments").select("code").where("code", "=", paid.receipt).execute()).toHaveLength(1);
    expect(await db.selectFrom("order_receipts").select("order_id").where("trans_id", "=", paid.receipt).execute()).toEqual([{ order_id: id }]);
    expect((await o.state(db, id)).state).toBe("verified");
  });

  it("Daraja answering 500: the order stands and the supporter is told to pay by paybill", async () => {
    fake.set({ push: "500" });
    const id = await o.place(db);
    const sent = await push(kind, id);
    expect(sent).toMatchObject({ state: "failed", message: expect.stringContaining("please pay by paybill") });
    const status = (await stkStatusOf(db, id))!;
    expect(status).toMatchObject({ state: "failed", resultCode: null });
    expect(resultWords(status)).toBe("M-Pesa is unavailable right now: no prompt was sent.");
    expect((await o.state(db, id)).status).toBe("pending");
  });

  it("Daraja hanging: cut at the time limit, the order stands, and nobody is told no money was taken", async () => {
    setDarajaTimeoutForTests(300);
    const id = await o.place(db);
    await push(kind, id, "0712000001"); // the token, fetched before Daraja hangs
    fake.set({ push: "hang" });
    const started = Date.now();
    const sent = await push(kind, id, "0712000002");
    expect(sent).toMatchObject({ state: "unknown", message: expect.stringContaining("we do not know whether the prompt reached your phone") });
    expect(Date.now() - started).toBeLessThan(3000);
    const status = (await stkStatusOf(db, id))!;
    expect(status.state).toBe("unknown");
    expect(resultWords(status)).not.toContain("no money was taken");
    expect(resultWords(status)).toContain("We do not know yet whether M-Pesa took the money");
  });

  it("one token serves many pushes", async () => {
    const issued = fake.state.tokensIssued;
    for (let i = 0; i < 3; i++) expect((await push(kind, await o.place(db), `071200001${i}`)).state).toBe("sent");
    expect(fake.state.tokensIssued - issued).toBe(1);
  });

  it("at most 3 prompts per order and per phone in 10 minutes; the refusal says when to try again", async () => {
    const id = await o.place(db);
    for (let i = 0; i < 3; i++) expect((await push(kind, id, `07120000${20 + i}`)).state).toBe("sent");
    const refused = await push(kind, id, "0712000029");
    expect(refused).toMatchObject({ state: "refused", message: "M-Pesa accepted 3 prompts for this order in the last 10 minutes. You can send another in 10 minutes, or pay by paybill now." });
    // Another order cannot flood that phone either.
    const phone = "0798765432";
    const seen = fake.state.pushes.length;
    for (let i = 0; i < 3; i++) expect((await push(kind, await o.place(db), phone)).state).toBe("sent");
    // Whoever types that number is not told how many prompts it got, nor when.
    const byPhone = await push(kind, await o.place(db), phone);
    expect(byPhone).toMatchObject({ state: "refused", message: PHONE_PROMPTS_REFUSED, retryAfterSeconds: WINDOW_MS / 1000 });
    expect(byPhone.state === "refused" && byPhone.message).not.toMatch(/\d/);
    expect(fake.state.pushes.slice(seen).filter((p: { phone: string }) => p.phone === "254798765432")).toHaveLength(3);
  });
});

describe("M-Pesa Express, the edges", () => {
  it("refuses a number that is not a Kenyan mobile, with a sentence", async () => {
    const id = await ORDERS.badge.place(db);
    await expect(push("badge", id, "12345")).rejects.toThrow("Enter the M-Pesa phone number as 07XXXXXXXX, 01XXXXXXXX or +254XXXXXXXXX.");
  });

  it("a wrong secret is a 404; a body that is no result is a 400; a callback for an unknown prompt is accepted", async () => {
    const post = (secret: string, body: unknown) => stkCallback.action({ ...args(jsonPost(`/api/pay/stk/${secret}`, body)), params: { secret } } as never);
    expect((await post("not-the-secret-0000000000", {})).status).toBe(404);
    expect((await post(SECRET, { hello: 1 })).status).toBe(400);
    expect((await post(SECRET, { Body: { stkCallback: { CheckoutRequestID: "ws_CO_nothing", MerchantRequestID: "1", ResultCode: "1032", ResultDesc: "x" } } })).status).toBe(200);
  }, 10_000);

  it("without the Daraja keys there is no push", async () => {
    db = await freshApp({ DARAJA_CONSUMER_KEY: undefined, DARAJA_CONSUMER_SECRET: undefined, DARAJA_PASSKEY: undefined });
    const id = await ORDERS.badge.place(db);
    await expect(push("badge", id)).rejects.toThrow("not available");
  });
});

const bodyOf = async <T = Record<string, unknown>>(r: Response) => (await readJson<T>(r)).body;

describe("the JSON API", () => {
  const KEY = "test-admin-key-0123456789";
  const badgePost = (body: Record<string, unknown>, ip = "10.0.0.7") => badgeApi.action(args(jsonPost("/api/badge_orders.php", body), ip));
  const merchPost = (body: Record<string, unknown>, ip = "10.0.0.8") => merchApi.action(args(jsonPost("/api/merch_orders.php", body), ip));
  const badge = { tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org" };

  it("a badge order with payWith stk is stored, then prompted; staff see payment.stk", async () => {
    const res = await badgePost({ ...badge, payWith: "stk", phone: "0712345678" });
    expect(res.status).toBe(200);
    const body = await bodyOf<{ id: string; stk: { state: string; checkoutRequestId: string } }>(res);
    expect(body.stk).toEqual({ state: "sent", checkoutRequestId: fake.latest(body.id)!.checkoutRequestId });
    expect(fake.latest(body.id)).toMatchObject({ amount: 1300, phone: "254712345678" });
    await fake.answer(body.stk.checkoutRequestId, 1032);
    const list = await bodyOf<{ items: { id: string; payment: { stk?: unknown } }[] }>(await badgeApi.loader(args(new Request("http://site.test/api/badge_orders.php", { headers: { "X-Admin-Key": KEY } }))));
    expect(list.items.find((o: { id: string }) => o.id === body.id)!.payment.stk).toEqual({ state: "cancelled", sentAt: expect.any(String), resultCode: "1032", resultDesc: "Request cancelled by user" });
  });

  it("many orders paid by prompt: each is stored (no typed code to share)", async () => {
    await saveCatalogue(db, FALLBACK_CATALOGUE);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const b = await badgePost({ ...badge, email: `jane${i}@example.org`, payWith: "stk", phone: `071234500${i}` });
      expect(b.status).toBe(200);
      ids.push((await bodyOf<{ id: string }>(b)).id);
      const m = await merchPost({ customerName: "Achieng Otieno", customerEmail: `a${i}@example.org`, payWith: "stk", phone: `011234500${i}`, items: [{ itemId: "SL-TOTE", size: "One size", quantity: 1 }] });
      expect(m.status).toBe(200);
      ids.push((await bodyOf<{ id: string }>(m)).id);
    }
    expect(new Set(ids).size).toBe(6);
  });

  it("the order page's token sends the prompt again (stk_push.php); a wrong token is a 404", async () => {
    const body = await bodyOf<{ id: string; stk: { checkoutRequestId: string } }>(await badgePost({ ...badge, payWith: "stk", phone: "+254712345678" }));
    await fake.answer(body.stk.checkoutRequestId, 1032);
    const token = (await db.selectFrom("badge_orders").select("asset_token").where("id", "=", body.id).executeTakeFirstOrThrow()).asset_token;
    const again = (t: string) => stkPushApi.action(args(jsonPost("/api/stk_push.php", { orderId: body.id, token: t })));
    expect((await again("not-the-token")).status).toBe(404);
    const res = await again(token);
    expect(await bodyOf(res)).toMatchObject({ ok: true, stk: { state: "sent" } });
    await fake.answer(undefined, "paid");
    expect((await getBadgeOrder(db, body.id)).payment.state).toBe("verified");
    // Paid: no more prompts.
    const refused = await again(token);
    expect(refused.status).toBe(409);
    expect(await bodyOf(refused)).toMatchObject({ error: "This order is already paid" });
  });

  it("a phone that is not a Kenyan mobile is refused with a sentence, and no order is stored", async () => {
    const res = await badgePost({ ...badge, payWith: "stk", phone: "+44 20 7946 0000" });
    expect(res.status).toBe(400);
    expect(await bodyOf(res)).toMatchObject({ ok: false, error: "Enter the M-Pesa phone number as 07XXXXXXXX, 01XXXXXXXX or +254XXXXXXXXX." });
    expect(await db.selectFrom("badge_orders").select("id").execute()).toEqual([]);
  });

  it("Daraja down: the merch order is stored and the answer says to pay by paybill", async () => {
    await saveCatalogue(db, FALLBACK_CATALOGUE);
    fake.set({ push: "500" });
    const res = await merchPost({
      customerName: "Achieng Otieno",
      customerEmail: "achieng@example.org",
      payWith: "stk",
      phone: "0112345678",
      items: [{ itemId: "SL-TOTE", size: "One size", quantity: 1 }],
    });
    expect(res.status).toBe(200);
    const body = await bodyOf<{ id: string; stk: { state: string; message: string } }>(res);
    expect(body.stk).toMatchObject({ state: "failed", message: expect.stringContaining("please pay by paybill") });
    expect(await db.selectFrom("merch_orders").select(["id", "customer_phone", "payment_reference"]).execute()).toEqual([{ id: body.id, customer_phone: "0112345678", payment_reference: body.id }]);
  });

  it("the order answer's stk.state is sent, unknown, refused or failed; staff see payment.stk.state 'unknown' for a push whose answer never came", async () => {
    const states: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await badgePost({ ...badge, name: `Child ${i} Wanjiru`, payWith: "stk", phone: "0712345678" });
      states.push((await bodyOf<{ stk: { state: string } }>(res)).stk.state);
    }
    expect(states).toEqual(["sent", "sent", "sent", "refused"]);
    setDarajaTimeoutForTests(300);
    fake.set({ push: "hang" });
    const slow = await bodyOf<{ id: string; stk: { state: string; message: string } }>(await badgePost({ ...badge, email: "slow@example.org", payWith: "stk", phone: "0722000777" }));
    expect(slow.stk).toMatchObject({ state: "unknown", message: expect.stringContaining("Please check your M-Pesa messages") });
    fake.set({ push: "500" });
    const down = await bodyOf<{ stk: { state: string } }>(await badgePost({ ...badge, email: "down@example.org", payWith: "stk", phone: "0722000888" }));
    expect(down.stk.state).toBe("failed");
    const list = await bodyOf<{ items: { id: string; payment: { stk?: { state: string } } }[] }>(await badgeApi.loader(args(new Request("http://site.test/api/badge_orders.php", { headers: { "X-Admin-Key": KEY } }))));
    expect(list.items.find((o) => o.id === slow.id)!.payment.stk!.state).toBe("unknown");
  });

  it("without payWith, the code is still required", async () => {
    const res = await badgePost({ ...badge, phone: "0712345678" });
    expect(res.status).toBe(400);
    expect(await bodyOf(res)).toMatchObject({ error: "Payment confirmation code is required." });
  });
});

describe("the order forms and the order page", () => {
  it("the badge form (no JavaScript) with 'Pay now' stores the order, prompts, and lands on the order page, which follows the prompt to 'Paid'", async () => {
    const answer = await thrown(
      eventRoute.action(args(formPost("/event?tier=t3", { intent: "order", tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", phone: "0712 345 678", payWith: "stk" }))),
    );
    expect(answer.status).toBe(303);
    const location = answer.headers.get("Location")!;
    const [, reference, token] = /^\/orders\/(BO-[0-9A-Z]{6})\?t=(.+)$/.exec(location)!;
    const page = async () => {
      const res = await orderRoute.loader({ ...args(get(location)), params: { reference } } as never);
      return (res as unknown as { data: { stk: StkPanelData | null } }).data.stk!;
    };
    expect(await page()).toMatchObject({ state: "sent", amount: 1300, orgName: "Street Light Outreach", refreshing: true, phone: "254712345678" });
    await fake.answer(fake.latest(reference)!.checkoutRequestId, 1032);
    expect(resultWords(await page())).toBe("Cancelled on the phone: no money was taken.");
    const again = await orderRoute.action({ ...args(formPost(location, { intent: "resend-prompt" })), params: { reference } } as never);
    expect((again as Response).status).toBe(303);
    const prompt = await fake.answer(fake.latest(reference)!.checkoutRequestId, "paid");
    expect(resultWords(await page())).toBe(`Paid: M-Pesa receipt ${prompt.receipt}.`);
    expect(token!.length).toBeGreaterThan(10);
  });

  it("'Pay by paybill instead' on the order page takes the code from the SMS, and M-Pesa's confirmation of it verifies the order", async () => {
    const taken = nextCode();
    const other = await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t1", name: "Other Payer", email: "other@example.org", paymentReference: taken }), null);
    const answer = await thrown(
      eventRoute.action(args(formPost("/event?tier=t3", { intent: "order", tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", phone: "0712345678", payWith: "stk" }))),
    );
    const location = answer.headers.get("Location")!;
    const reference = /^\/orders\/(BO-[0-9A-Z]{6})\?/.exec(location)![1]!;
    await fake.answer(fake.latest(reference)!.checkoutRequestId, 1032);
    const send = async (code: string) => {
      const res = (await orderRoute.action({ ...args(formPost(location, { intent: "add-code", paymentReference: code })), params: { reference } } as never)) as unknown as {
        data: { codeSaved?: string; codeError?: string };
        init: { status: number };
      };
      return { status: res.init.status, ...res.data };
    };
    expect(await send("hello")).toEqual({ status: 400, codeError: expect.stringContaining("10 letters and numbers") });
    expect(await send(taken)).toEqual({ status: 409, codeError: expect.stringContaining("already been used") });
    expect((await getBadgeOrder(db, other.id)).paymentReference).toBe(taken);
    // Pasted as the SMS came; sent twice (a lost answer): both fine.
    const code = nextCode();
    const sms = `${code} Confirmed. Ksh1,300.00 sent to STREET LIGHT for account 12345 on 26/11/26 at 7:15 PM.`;
    expect(await send(sms)).toEqual({ status: 200, codeSaved: "Thank you: we have your M-Pesa code. We will match it to M-Pesa's records." });
    expect(await send(code)).toMatchObject({ status: 200 });
    expect((await getBadgeOrder(db, reference)).paymentReference).toBe(code);
    // Another code for the same order is refused: it has its code now.
    expect(await send(nextCode())).toEqual({ status: 409, codeError: "This order already has its M-Pesa code." });
    expect(await confirmC2b({
      TransID: code,
      TransAmount: "1300.00",
      BusinessShortCode: "880100",
      BillRefNumber: "12345",
      MSISDN: "254712345678",
      FirstName: "JANE",
    })).toBe(200);
    expect((await getBadgeOrder(db, reference)).payment.state).toBe("verified");
  });

  it("the badge form refuses a phone M-Pesa cannot prompt, on the phone field", async () => {
    const res = await eventRoute.action(args(formPost("/event?tier=t3", { intent: "order", tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", phone: "020 123 4567", payWith: "stk" })));
    const reply = (res as unknown as { data: { fieldErrors: Record<string, string[]> } }).data;
    expect(reply.fieldErrors).toEqual({ phone: ["Enter the M-Pesa phone number as 07XXXXXXXX, 01XXXXXXXX or +254XXXXXXXXX."] });
  });
});

describe("M-Pesa Express on a bad day (the fake holds answers, loses callbacks, expires tokens)", () => {
  const KEY = "test-admin-key-0123456789";
  const NO_MONEY = /no money was taken/i;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const placeBadge = async (phone = "0712345678") =>
    (await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", phone, payWith: "stk" }), null)).id;
  const tokenOf = async (id: string) => (await db.selectFrom("badge_orders").select("asset_token").where("id", "=", id).executeTakeFirstOrThrow()).asset_token;
  /** The order page as its payer reads it: the panel's sentence and the payment section's. */
  const pageOf = async (id: string) => {
    const t = await tokenOf(id);
    const res = await orderRoute.loader({ ...args(get(`/orders/${id}?t=${t}`)), params: { reference: id } } as never);
    const d = (res as unknown as { data: { stk: (StkPanelData & { promptPaid: boolean }) | null; order: { payment: { state: string; receivedAmount: number | null }; promptPaid?: boolean } } }).data;
    const section = paymentWords(d.order.payment as never, { amount: 1300, currency: "KES", kind: "badge", reference: id, promptPaid: d.order.promptPaid });
    const panel = d.stk ? (d.stk.orderPaid || d.stk.state !== "sent" ? (d.stk.paymentSentence ?? resultWords(d.stk)) : "Check your phone") : "";
    return { stk: d.stk!, payment: d.order.payment, panel, section, text: `${panel} ${section.headline} ${section.detail}` };
  };
  const received = async (id: string) => (await getBadgeOrder(db, id)).payment;
  /** The prompt on the phone for this order, once the push has reached the fake. */
  const promptOn = async (id: string) => {
    for (let i = 0; i < 100 && !fake.latest(id); i++) await sleep(50);
    return fake.latest(id)!;
  };
  const resend = async (id: string) => stkPushApi.action(args(jsonPost("/api/stk_push.php", { orderId: id, token: await tokenOf(id) })));
  /** Runs the query loop as its timer would, from the push to `untilMs` after it, in steps (the clock is moved, nobody waits). */
  const runQueriesFor = async (sentAt: number, untilMs: number, stepMs = 30_000) => {
    for (let t = 91_000; t <= untilMs; t += stepMs) await askAboutQuietPushes(db, new Date(sentAt + t));
  };

  it("the push's answer held past the site's limit, the paid callback during the wait: one payment, the order paid, never 'no money was taken'", async () => {
    setDarajaTimeoutForTests(1200);
    fake.set({ pushDelayMs: 2500 });
    const id = await placeBadge();
    const sending = push("badge", id);
    const prompt = await promptOn(id);
    // The payer enters the PIN while Daraja still holds the push's answer.
    await fake.answer(prompt.checkoutRequestId, "paid");
    expect(fake.state.callbacks.at(-1)).toMatchObject({ status: 200 });
    const sent = await sending;
    expect(sent.state).toBe("unknown");
    const payment = await received(id);
    expect(payment).toMatchObject({ state: "verified", receivedAmount: 1300 });
    expect(payment.receipts.map((r) => r.transId)).toEqual([prompt.receipt]);
    const page = await pageOf(id);
    expect(page.stk.orderPaid).toBe(true);
    expect(page.text).not.toMatch(NO_MONEY);
    // Paid: no second prompt.
    const pushes = fake.state.pushes.length;
    expect((await resend(id)).status).toBe(409);
    expect(fake.state.pushes.length).toBe(pushes);
  });

  it("the push's answer held past the site's limit, the paid callback after the site gave up: 'unknown', then paid by its callback", async () => {
    setDarajaTimeoutForTests(800);
    fake.set({ pushDelayMs: 1500 });
    const id = await placeBadge();
    const sent = await push("badge", id);
    expect(sent).toMatchObject({ state: "unknown" });
    const waiting = await pageOf(id);
    expect(waiting.stk.state).toBe("unknown");
    expect(waiting.panel).toContain("We do not know yet whether M-Pesa took the money");
    expect(waiting.text).not.toMatch(NO_MONEY);
    // No new prompt for 2 minutes: the payer checks their messages first.
    expect(waiting.stk.resendAfter).not.toBeNull();
    expect((await resend(id)).status).toBe(429);
    const prompt = fake.latest(id)!;
    await fake.answer(prompt.checkoutRequestId, "paid");
    expect(await received(id)).toMatchObject({ state: "verified", receivedAmount: 1300 });
    expect(await db.selectFrom("stk_callbacks_held").select(["receipt", "push_id"]).execute()).toEqual([{ receipt: prompt.receipt, push_id: expect.any(Number) }]);
    expect((await pageOf(id)).panel).toMatch(/^Payment received: KES 1,300/);
  });

  it("a callback before the push's answer is kept, and settles the prompt when the answer comes (paid, and cancelled)", async () => {
    fake.set({ pushDelayMs: 700 });
    const id = await placeBadge();
    const sending = push("badge", id);
    const paid = await fake.answer((await promptOn(id)).checkoutRequestId, "paid");
    expect((await sending).state).toBe("sent");
    expect(await stkStatusOf(db, id)).toMatchObject({ state: "paid", receipt: paid.receipt });
    expect(await received(id)).toMatchObject({ state: "verified", receivedAmount: 1300 });

    const other = await placeBadge("0722000111");
    const second = push("badge", other, "0722000111");
    await fake.answer((await promptOn(other)).checkoutRequestId, 1032);
    expect((await second).state).toBe("sent");
    const status = (await stkStatusOf(db, other))!;
    expect(status).toMatchObject({ state: "cancelled", resultCode: "1032" });
    // M-Pesa itself said so, for this prompt: now the words may say it.
    expect(resultWords(status)).toBe("Cancelled on the phone: no money was taken.");
  });

  it("a paid callback nobody can place is kept in the ledger as unclaimed, and staff link it through POST /api/mpesa_payments.php", async () => {
    // Paid a few minutes ago, as M-Pesa writes it (Nairobi time): a date written into the test goes stale
    // a week later, when the payment reads as made long before the order.
    const paidAt = Number(nairobiStamp(new Date(Date.now() - 5 * 60_000)));
    const body = {
      Body: {
        stkCallback: {
          MerchantRequestID: "29115-34620561-1",
          CheckoutRequestID: "ws_CO_191220191020363925",
          ResultCode: 0,
          ResultDesc: "The service request is processed successfully.",
          CallbackMetadata: { Item: [{ Name: "Amount", Value: 1300 }, { Name: "MpesaReceiptNumber", Value: "TKR9X0AB12" }, { Name: "Balance" }, { Name: "TransactionDate", Value: paidAt }, { Name: "PhoneNumber", Value: 254799000111 }] },
        },
      },
    };
    const answer = await stkCallback.action({ ...args(jsonPost(`/api/pay/stk/${SECRET}`, body)), params: { secret: SECRET } } as never);
    expect(answer.status).toBe(200);
    expect(await db.selectFrom("received_payments").select(["code", "amount", "payer_phone"]).where("code", "=", "TKR9X0AB12").execute()).toEqual([
      { code: "TKR9X0AB12", amount: 1300, payer_phone: "254799000111" },
    ]);
    expect(await db.selectFrom("order_receipts").select("trans_id").execute()).toEqual([]);
    const id = await placeBadge("0799000111");
    const linked = await mpesaPayments.action(args(jsonPost("/api/mpesa_payments.php", { action: "link", transId: "TKR9X0AB12", orderId: id }, { "X-Admin-Key": KEY })));
    expect(linked.status).toBe(200);
    expect(await received(id)).toMatchObject({ state: "verified", receivedAmount: 1300 });
  });

  it("a C2B confirmation set aside as paid to another number can be linked through POST /api/mpesa_payments.php", async () => {
    expect(await confirmC2b({ TransID: "TON1234567", TransAmount: "1300.00", BusinessShortCode: "999999", BillRefNumber: "JANE", MSISDN: "254712345678", FirstName: "JANE" })).toBe(200);
    expect(await db.selectFrom("callbacks_set_aside").select(["trans_id", "reason"]).execute()).toEqual([{ trans_id: "TON1234567", reason: "other_number" }]);
    const id = await placeBadge();
    const linked = await mpesaPayments.action(args(jsonPost("/api/mpesa_payments.php", { action: "link", transId: "TON1234567", orderId: id }, { "X-Admin-Key": KEY })));
    expect(linked.status).toBe(200);
    expect(await received(id)).toMatchObject({ state: "verified", receivedAmount: 1300 });
  });

  it("a non-numeric ResultCode ('SFC_IC0003') is accepted and worded as M-Pesa's failure", async () => {
    const id = await placeBadge();
    const sent = await push("badge", id);
    if (sent.state !== "sent") throw new Error(sent.state);
    const body = { Body: { stkCallback: { MerchantRequestID: "1", CheckoutRequestID: sent.checkoutRequestId, ResultCode: "SFC_IC0003", ResultDesc: "The operator does not exist" } } };
    const answer = await stkCallback.action({ ...args(jsonPost(`/api/pay/stk/${SECRET}`, body)), params: { secret: SECRET } } as never);
    expect(answer.status).toBe(200);
    const status = (await stkStatusOf(db, id))!;
    expect(status).toMatchObject({ state: "failed", resultCode: "SFC_IC0003" });
    expect(resultWords(status)).toBe("Not paid: M-Pesa said 'The operator does not exist'.");
  });

  it("a token Daraja answers with HTTP 404 404.001.03 is fetched again: the push goes out", async () => {
    const first = await push("badge", await placeBadge());
    expect(first.state).toBe("sent");
    const issued = fake.state.tokensIssued;
    fake.expireTokens();
    expect(await push("badge", await placeBadge("0722000222"), "0722000222")).toMatchObject({ state: "sent" });
    expect(fake.state.tokensIssued - issued).toBe(1);
  });

  it("'being processed' for 15 minutes, then paid: asked with back-off, 'unknown' meanwhile, then paid with its receipt to follow", async () => {
    const id = await placeBadge();
    const sent = await push("badge", id);
    if (sent.state !== "sent") throw new Error(sent.state);
    const t0 = Date.now();
    const queries = fake.state.queries;
    await runQueriesFor(t0, 15 * 60_000, 15_000);
    // Back-off: far fewer questions than one every 15 s.
    const asked = fake.state.queries - queries;
    expect(asked).toBeGreaterThanOrEqual(4);
    expect(asked).toBeLessThan(10);
    const meanwhile = await pageOf(id);
    expect(meanwhile.stk.state).toBe("unknown");
    expect(meanwhile.text).not.toMatch(NO_MONEY);
    const paid = await fake.answer(sent.checkoutRequestId, "never");
    await runQueriesFor(t0, 60 * 60_000, 60_000);
    expect(await stkStatusOf(db, id)).toMatchObject({ state: "paid", receipt: null });
    const page = await pageOf(id);
    expect(page.stk.orderPaid).toBe(true);
    expect(page.section.headline).toBe("Paid: M-Pesa says your payment went through");
    expect(page.panel).toBe(page.section.headline);
    expect(page.text).not.toContain("We have not seen this payment yet");
    // A query that says paid counts: no second prompt.
    expect((await resend(id)).status).toBe(409);
    // The receipt comes by C2B (the prompt's account number is the order's reference).
    expect(await confirmC2b({ TransID: paid.receipt, TransAmount: "1300.00", BusinessShortCode: "880100", BillRefNumber: id, MSISDN: "254712345678", FirstName: "JANE" })).toBe(200);
    await linkByAccount(db);
    expect(await received(id)).toMatchObject({ state: "verified", receivedAmount: 1300 });
  });

  it("Daraja unreachable for an hour, then paid: never closed as 'no money was taken'; asked for 24 hours, then listed for staff", async () => {
    const id = await placeBadge();
    const sent = await push("badge", id);
    if (sent.state !== "sent") throw new Error(sent.state);
    const t0 = Date.now();
    fake.set({ query: "down" });
    await runQueriesFor(t0, 65 * 60_000);
    const status = (await stkStatusOf(db, id))!;
    expect(status.state).toBe("unknown");
    expect((await pageOf(id)).text).not.toMatch(NO_MONEY);
    fake.set({ query: "ok" });
    await fake.answer(sent.checkoutRequestId, "never");
    await runQueriesFor(t0, 2 * 60 * 60_000, 60_000);
    expect(await stkStatusOf(db, id)).toMatchObject({ state: "paid", receipt: null });

    // Another that M-Pesa never settles: asked for 24 hours, then 'unknown' for staff, still not 'no money was taken'.
    const other = await placeBadge("0722000333");
    const second = await push("badge", other, "0722000333");
    if (second.state !== "sent") throw new Error(second.state);
    const t1 = Date.now();
    await runQueriesFor(t1, 26 * 60 * 60_000, 10 * 60_000);
    const row = await db.selectFrom("stk_pushes").selectAll().where("order_id", "=", other).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: "unknown", query_due_at: null });
    expect((await unknownPrompts(db)).map((p) => p.orderId)).toContain(other);
    // Staff see it on /admin/payments, with the phone and amount to ask about.
    const screen = await loadPaymentsScreen({ db } as never);
    expect(screen.unsettled).toEqual([expect.objectContaining({ orderId: other, kind: "badge", phone: "254722000333", amount: 1300 })]);
    expect(resultWords((await stkStatusOf(db, other))!)).not.toMatch(NO_MONEY);
  });

  it("a process stopped between writing the prompt and keeping Daraja's answer: the row is due at once, becomes 'unknown', and its callback pays the order", async () => {
    const id = await placeBadge();
    const t0 = Date.now();
    // What the process left: the row (written before Daraja was asked), and a prompt on the phone.
    fake.set({ pushDelayMs: 60_000 });
    setDarajaTimeoutForTests(300);
    await push("badge", id);
    await db.updateTable("stk_pushes").set({ state: "sent", result_desc: "" }).where("order_id", "=", id).execute();
    fake.set({ pushDelayMs: 0 });
    const row = await db.selectFrom("stk_pushes").selectAll().where("order_id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ checkout_request_id: null, query_due_at: expect.any(String) });
    await runQueriesFor(t0, 5 * 60_000);
    expect((await stkStatusOf(db, id))!.state).toBe("unknown");
    const prompt = fake.latest(id)!;
    await fake.answer(prompt.checkoutRequestId, "paid");
    expect(await received(id)).toMatchObject({ state: "verified", receivedAmount: 1300 });
  });

  it("cancelled, then paid by paybill, then a resend: 409, no second prompt, and the panel says what the payment section says", async () => {
    const id = await placeBadge();
    const sent = await push("badge", id);
    if (sent.state !== "sent") throw new Error(sent.state);
    await fake.answer(sent.checkoutRequestId, 1032);
    expect((await pageOf(id)).panel).toBe("Cancelled on the phone: no money was taken.");
    expect(await confirmC2b({ TransID: "TPB1234567", TransAmount: "1300.00", BusinessShortCode: "880100", BillRefNumber: id, MSISDN: "254712345678", FirstName: "JANE" })).toBe(200);
    await linkByAccount(db);
    expect(await received(id)).toMatchObject({ state: "verified", receivedAmount: 1300 });
    const page = await pageOf(id);
    expect(page.stk.orderPaid).toBe(true);
    expect(page.panel).toBe(page.section.headline);
    expect(page.text).not.toMatch(NO_MONEY);
    const pushes = fake.state.pushes.length;
    const again = await resend(id);
    expect(again.status).toBe(409);
    expect(await bodyOf(again)).toMatchObject({ error: "This order is already paid" });
    const formAgain = await orderRoute.action({ ...args(formPost(`/orders/${id}?t=${await tokenOf(id)}`, { intent: "resend-prompt" })), params: { reference: id } } as never);
    expect((formAgain as unknown as { init: { status: number } }).init.status).toBe(409);
    expect(fake.state.pushes.length).toBe(pushes);
    expect((await received(id)).receivedAmount).toBe(1300);
  });

  it("Daraja's 400.002.02 Invalid PhoneNumber says the number cannot get prompts, and the resend may go to a corrected number", async () => {
    fake.set({ refusePhone: "254712345678" });
    const id = await placeBadge("0712345678");
    const first = await push("badge", id);
    expect(first).toMatchObject({ state: "failed", message: INVALID_PHONE_WORDS });
    expect(resultWords((await stkStatusOf(db, id))!)).toBe(INVALID_PHONE_WORDS);
    // Not counted: Daraja did not accept it.
    expect(fake.state.pushes.filter((p: { accountReference: string }) => p.accountReference === id)).toHaveLength(0);
    // Another order's prompt cannot be aimed at another number: only after M-Pesa refused the order's own.
    fake.set({ refusePhone: null });
    const other = await placeBadge("0722000555");
    const otherSent = await push("badge", other, "0722000555");
    if (otherSent.state !== "sent") throw new Error(otherSent.state);
    await fake.answer(otherSent.checkoutRequestId, 1032);
    expect((await stkPushApi.action(args(jsonPost("/api/stk_push.php", { orderId: other, token: await tokenOf(other), phone: "0733000444" })))).status).toBe(400);
    const fixed = await stkPushApi.action(args(jsonPost("/api/stk_push.php", { orderId: id, token: await tokenOf(id), phone: "0733 000 444" })));
    expect(await bodyOf(fixed)).toMatchObject({ stk: { state: "sent" } });
    expect(fake.latest(id)!.phone).toBe("254733000444");
  });
});

describe("'Pay now' sent twice, and refused prompts", () => {
  const form = (fields: Record<string, string> = {}) =>
    formPost("/event?tier=t3", { intent: "order", tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", phone: "0712 345 678", payWith: "stk", ...fields });
  const tokenOf = async (id: string) => (await db.selectFrom("badge_orders").select("asset_token").where("id", "=", id).executeTakeFirstOrThrow()).asset_token;
  let seen = 0;
  beforeEach(() => {
    seen = fake.state.pushes.length;
  });
  const pushesTo = (msisdn: string) => fake.state.pushes.slice(seen).filter((p: { phone: string }) => p.phone === msisdn);
  const panelOf = async (id: string) => {
    const res = await orderRoute.loader({ ...args(get(`/orders/${id}?t=${await tokenOf(id)}`)), params: { reference: id } } as never);
    const d = (res as unknown as { data: { stk: StkPanelData; order: Parameters<typeof paymentWords>[1] & { payment: Parameters<typeof paymentWords>[0] } } }).data;
    return { stk: d.stk, section: paymentWords(d.order.payment, d.order) };
  };

  it("the badge form sent twice (no JavaScript, and JSON without a key) is one order and one prompt", async () => {
    const first = await thrown(eventRoute.action(args(form())));
    const second = await thrown(eventRoute.action(args(form({ email: "JANE@example.org", phone: "+254712345678" }))));
    expect(first.status).toBe(303);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await db.selectFrom("badge_orders").select("id").execute()).toHaveLength(1);
    expect(pushesTo("254712345678")).toHaveLength(1);
    const body = { tierKey: "t3", name: "Achieng Otieno", email: "achieng@example.org", payWith: "stk", phone: "0722000666" };
    const a = await readJson<{ id: string; stk?: unknown }>(await badgeApi.action(args(jsonPost("/api/badge_orders.php", body))));
    const b = await readJson<{ id: string; stk?: unknown; replayed?: boolean }>(await badgeApi.action(args(jsonPost("/api/badge_orders.php", body))));
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.stk).toBeUndefined();
    expect(pushesTo("254722000666")).toHaveLength(1);
    // Another child's badge from the same parent is an order of its own.
    const sibling = await thrown(eventRoute.action(args(form({ name: "Baraka Wanjiru" }))));
    expect(sibling.headers.get("Location")).not.toBe(first.headers.get("Location"));
  });

  it("the merch checkout sent twice with 'Pay now' is one order and one prompt", async () => {
    await saveCatalogue(db, FALLBACK_CATALOGUE);
    const body = { customerName: "Achieng Otieno", customerEmail: "achieng@example.org", payWith: "stk", phone: "0112345678", items: [{ itemId: "SL-TOTE", size: "One size", quantity: 1 }] };
    const a = await readJson<{ id: string }>(await merchApi.action(args(jsonPost("/api/merch_orders.php", body))));
    const b = await readJson<{ id: string; stk?: unknown }>(await merchApi.action(args(jsonPost("/api/merch_orders.php", body))));
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.stk).toBeUndefined();
    expect(await db.selectFrom("merch_orders").select("id").execute()).toHaveLength(1);
    expect(pushesTo("254112345678")).toHaveLength(1);
  });

  it("a fourth order from one phone in 10 minutes: stored, the refusal said on its page with the paybill and account number, never 'no need to pay again'", async () => {
    const ids: string[] = [];
    for (const name of ["Amani Wanjiru", "Baraka Wanjiru", "Neema Wanjiru", "Zawadi Wanjiru"]) {
      const res = await thrown(eventRoute.action(args(form({ name }))));
      expect(res.status).toBe(303);
      ids.push(/^\/orders\/(BO-[0-9A-Z]{6})\?/.exec(res.headers.get("Location")!)![1]!);
    }
    expect(new Set(ids).size).toBe(4);
    expect(pushesTo("254712345678")).toHaveLength(3);
    const fourth = await panelOf(ids[3]!);
    expect(fourth.stk).toMatchObject({ state: "failed", resultCode: "refused", orderId: ids[3], paybill: "880100" });
    // The number is someone's: the sentence says neither how many prompts it got nor when.
    expect(resultWords(fourth.stk)).toBe(`No prompt was sent: ${PHONE_PROMPTS_REFUSED}`);
    expect(fourth.section.detail).toBe(`No M-Pesa prompt reached your phone for this order, so nothing was paid with it. Please pay to paybill 880100 with account number ${ids[3]} (your order reference).`);
    expect(fourth.section.detail).not.toContain("There is no need to pay again");
    // Refused prompts do not count: Daraja was not asked.
    expect(await db.selectFrom("stk_pushes").select("id").where("checkout_request_id", "is not", null).execute()).toHaveLength(3);
  });

  it("numbers outside Safaricom's ranges are warned about, never refused", () => {
    expect(inSafaricomRange("254712345678")).toBe(true);
    expect(inSafaricomRange("254112345678")).toBe(true);
    expect(inSafaricomRange("254733123456")).toBe(false);
    expect(inSafaricomRange("254771123456")).toBe(false);
    expect(mpesaPhone("0733123456")).toBe("254733123456");
  });
});

describe("with the automatic approval running (AUTO_APPROVE_VERIFIED), what follows a prompt's payment", () => {
  const kitMails = async () => (await db.selectFrom("outbox").select("id").where("kind", "=", "badge.kit").execute()).length;
  /** The pass kicked at start-up has ended: from here only what a test does kicks it. */
  const settled = () => new Promise((r) => setTimeout(r, 1_000));

  it("the result callback alone approves the order and emails its kit", async () => {
    db = await freshApp(siteEnv({ AUTO_APPROVE_VERIFIED: "on" }));
    startAutoApprove(60_000);
    try {
      const id = await ORDERS.badge.place(db);
      await settled();
      const sent = await push("badge", id);
      if (sent.state !== "sent") throw new Error(sent.state);
      await fake.answer(sent.checkoutRequestId, "paid");
      await expect.poll(async () => (await ORDERS.badge.state(db, id)).status, { timeout: 15_000 }).toBe("approved");
      expect(await kitMails()).toBe(1);
    } finally {
      await stopAutoApprove();
    }
  });

  it("a code added late on the order page approves the order once M-Pesa's confirmation of it is in", async () => {
    db = await freshApp(siteEnv({ AUTO_APPROVE_VERIFIED: "on" }));
    startAutoApprove(60_000);
    try {
      const answer = await thrown(
        eventRoute.action(args(formPost("/event?tier=t3", { intent: "order", tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", phone: "0712345678", payWith: "stk" }))),
      );
      const location = answer.headers.get("Location")!;
      const reference = /^\/orders\/(BO-[0-9A-Z]{6})\?/.exec(location)![1]!;
      await fake.answer(fake.latest(reference)!.checkoutRequestId, 1032);
      // Paid by paybill with another account number: the payment names no order.
      const code = nextCode();
      expect(await confirmC2b({
        TransID: code,
        TransAmount: "1300.00",
        BusinessShortCode: "880100",
        BillRefNumber: "12345",
        MSISDN: "254712345678",
        FirstName: "JANE",
      })).toBe(200);
      await settled();
      expect((await getBadgeOrder(db, reference)).status).toBe("pending");
      const res = (await orderRoute.action({ ...args(formPost(location, { intent: "add-code", paymentReference: code })), params: { reference } } as never)) as unknown as { init: { status: number } };
      expect(res.init.status).toBe(200);
      await expect.poll(async () => (await getBadgeOrder(db, reference)).status, { timeout: 15_000 }).toBe("approved");
      expect(await kitMails()).toBe(1);
    } finally {
      await stopAutoApprove();
    }
  });

  it("the server's query loop asks about a prompt whose callback never came and settles it as M-Pesa says", async () => {
    const id = await ORDERS.badge.place(db);
    const sent = await push("badge", id);
    if (sent.state !== "sent") throw new Error(sent.state);
    await fake.answer(sent.checkoutRequestId, "never");
    // Due now rather than in 90 seconds.
    await db.updateTable("stk_pushes").set({ query_due_at: new Date(Date.now() - 1_000).toISOString() }).where("order_id", "=", id).execute();
    startStkQueries(db, 50);
    try {
      await expect.poll(async () => (await stkStatusOf(db, id))?.state, { timeout: 10_000 }).toBe("paid");
    } finally {
      await stopStkQueries();
    }
  });
});
