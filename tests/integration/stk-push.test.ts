import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDarajaFake } from "../support/daraja-fake.mjs";
import * as stkCallback from "~/routes/api/stk-callback";
import * as c2b from "~/routes/api/mpesa-c2b";
import * as badgeApi from "~/routes/api/badge-orders";
import * as merchApi from "~/routes/api/merch-orders";
import * as stkPushApi from "~/routes/api/stk-push";
import * as eventRoute from "~/routes/event/event";
import * as orderRoute from "~/routes/orders/order";
import type { StkPanelData } from "~/features/stk-push/components/stk-panel";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { CheckoutSchema } from "~/features/merch/merch.schema";
import { saveCatalogue, submitMerchOrder } from "~/features/merch/merch.server";
import { FALLBACK_CATALOGUE } from "~/features/merch/merch";
import { getBadgeOrder, getMerchOrder } from "~/features/reconciliation/orders.server";
import { approveVerifiedOrders } from "~/features/reconciliation/auto-approve.server";
import { linkByAccount } from "~/features/reconciliation/receipts.server";
import { askAboutQuietPushes, PHONE_PROMPTS_REFUSED, sendStkPush, stkStatusOf, WINDOW_MS } from "~/features/stk-push/stk-push.server";
import { resultWords } from "~/features/stk-push/stk-push";
import { forgetDarajaTokensForTests, setDarajaTimeoutForTests } from "~/features/stk-push/daraja-client.server";
import type { Db } from "~/lib/db.server";
import { args, formPost, get, jsonPost, readJson, thrown } from "../support/http";
import { freshApp } from "../support/reset";

const SECRET = "stk-callback-secret-0123456789";

let fake: Awaited<ReturnType<typeof startDarajaFake>>;
let bridge: http.Server;
let bridgeUrl = "";

beforeAll(async () => {
  fake = await startDarajaFake();
  // The site's callback URL, as Safaricom reaches it: a real HTTP request into the route's action.
  bridge = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", async () => {
      const secret = decodeURIComponent(req.url!.split("/").pop()!);
      const request = new Request(`http://site.test${req.url}`, { method: "POST", body: text, headers: { "content-type": "application/json" } });
      const answer: Response = await stkCallback.action({ ...args(request, "196.201.214.200"), params: { secret } } as never);
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((r) => bridge.listen(0, "127.0.0.1", r));
  bridgeUrl = `http://127.0.0.1:${(bridge.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fake.close();
  await new Promise((r) => bridge.close(r));
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
  fake.set({ push: "ok", outcome: null, resultCodeAs: "number" });
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
    expect(await askAboutQuietPushes(db)).toEqual({ asked: 0, settled: 0 });
    const later = new Date(Date.now() + 91_000);
    // The supporter has not answered: 'being processed', asked again later.
    expect(await askAboutQuietPushes(db, later)).toEqual({ asked: 1, settled: 0 });
    const paid = await fake.answer(sent.checkoutRequestId, "never");
    const queries = fake.state.queries;
    const muchLater = new Date(Date.now() + 130_000);
    // Two processes at once: one asks.
    const [a, b] = await Promise.all([askAboutQuietPushes(db, muchLater), askAboutQuietPushes(db, muchLater)]);
    expect(a.asked + b.asked).toBe(1);
    expect(fake.state.queries - queries).toBe(1);
    expect(await stkStatusOf(db, id)).toMatchObject({ state: "paid", resultCode: "0", receipt: null });
    expect((await o.state(db, id)).state).not.toBe("verified");
    // The C2B confirmation names the prompt's account number: the order's reference.
    const nairobi = new Date(Date.now() + 3 * 3_600_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
    const confirmation = jsonPost(`/api/pay/c2b/confirmation/${SECRET}`, {
      TransactionType: "Pay Bill",
      TransID: paid.receipt,
      TransTime: nairobi,
      TransAmount: `${paid.amount}.00`,
      BusinessShortCode: "880100",
      BillRefNumber: id,
      MSISDN: "254712345678",
      FirstName: "JANE",
    });
    expect((await c2b.action({ ...args(confirmation), params: { kind: "confirmation", secret: SECRET } } as never)).status).toBe(200);
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

  it("Daraja hanging: cut at the time limit, the order stands", async () => {
    setDarajaTimeoutForTests(300);
    const id = await o.place(db);
    await push(kind, id, "0712000001"); // the token, fetched before Daraja hangs
    fake.set({ push: "hang" });
    const started = Date.now();
    const sent = await push(kind, id, "0712000002");
    expect(sent.state).toBe("failed");
    expect(Date.now() - started).toBeLessThan(3000);
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
    expect(refused).toMatchObject({ state: "refused", message: "3 M-Pesa prompts were sent to this order in the last 10 minutes. You can send another in 10 minutes, or pay by paybill now." });
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
    expect(await bodyOf(refused)).toMatchObject({ error: "This order is already paid by M-Pesa." });
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
    const nairobi = new Date(Date.now() + 3 * 3_600_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
    const confirmation = jsonPost(`/api/pay/c2b/confirmation/${SECRET}`, {
      TransactionType: "Pay Bill",
      TransID: code,
      TransTime: nairobi,
      TransAmount: "1300.00",
      BusinessShortCode: "880100",
      BillRefNumber: "12345",
      MSISDN: "254712345678",
      FirstName: "JANE",
    });
    expect((await c2b.action({ ...args(confirmation), params: { kind: "confirmation", secret: SECRET } } as never)).status).toBe(200);
    expect((await getBadgeOrder(db, reference)).payment.state).toBe("verified");
  });

  it("the badge form refuses a phone M-Pesa cannot prompt, on the phone field", async () => {
    const res = await eventRoute.action(args(formPost("/event?tier=t3", { intent: "order", tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", phone: "020 123 4567", payWith: "stk" })));
    const reply = (res as unknown as { data: { fieldErrors: Record<string, string[]> } }).data;
    expect(reply.fieldErrors).toEqual({ phone: ["Enter the M-Pesa phone number as 07XXXXXXXX, 01XXXXXXXX or +254XXXXXXXXX."] });
  });
});
