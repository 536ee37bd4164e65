import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MerchItem } from "~/features/merch/merch";
import { addToBag, saveCatalogue } from "~/features/merch/merch.server";
import { ORDER_REPLAYED } from "~/features/payment-codes/order-replay";
import { IDEMPOTENCY_KEY_REUSED } from "~/features/payment-codes/order-replay.server";
import { PAYMENT_CODE_USED } from "~/features/payment-codes/payment-codes.server";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import { IDEMPOTENCY_KEY_INVALID } from "~/lib/http/idempotency-key.server";
import * as badgeOrdersApi from "~/routes/api/badge-orders";
import * as merchOrdersApi from "~/routes/api/merch-orders";
import * as eventRoute from "~/routes/event/event";
import * as storeRoute from "~/routes/merch/store";
import { ORIGIN, args, formPost, jsonPost, readJson, reply, type ApiError } from "../support/http";
import { freshApp } from "../support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";
import { rowCount } from "../support/domain";

// On a mobile network the answer to an order is often lost after the order was stored. The
// same order sent again (same code, email and tier or bag) is answered with the stored order,
// on the forms and the JSON APIs; only another person's order with the code is a 409.

let ip = 0;
const nextIp = () => `10.30.${Math.floor(++ip / 250)}.${ip % 250}`;

const badge = (fields: Record<string, unknown> = {}) => ({
  tierKey: "t3",
  name: "Jane Wanjiru",
  email: "jane@example.org",
  phone: "",
  paymentReference: "SKL4Q2ZB7X",
  ...fields,
});
const CAP: MerchItem = {
  id: "SL-CAP",
  slug: "lamp-cap",
  name: "Lamp Cap",
  description: "",
  price: 900,
  currency: "KES",
  impact: "",
  image: "",
  tags: [],
  available: true,
  colors: [],
  sizes: [],
};
const merch = (fields: Record<string, unknown> = {}) => ({
  customerName: "Achieng Otieno",
  customerEmail: "achieng@example.org",
  customerPhone: "+254 712 345 678",
  paymentReference: "SKL4Q2ZB7X",
  currency: "KES",
  items: [{ itemId: "SL-CAP", quantity: 2, color: "", size: "" }],
  ...fields,
});

/** One caller's address, for the Idempotency-Key cases (a key is its caller's own). */
const CALLER = "10.43.9.9";
const postBadge = (body: unknown, headers: Record<string, string> = {}, ip = nextIp()) =>
  badgeOrdersApi.action(args(jsonPost("/api/badge_orders.php", body, headers), ip));
const postMerch = (body: unknown, headers: Record<string, string> = {}, ip = nextIp()) =>
  merchOrdersApi.action(args(jsonPost("/api/merch_orders.php", body, headers), ip));

async function apiError(res: Response, status: number) {
  const { body } = await readJson<ApiError>(res);
  expect(res.status).toBe(status);
  expect(body.ok).toBe(false);
  return body.error;
}

const count = (table: "badge_orders" | "merch_orders" | "outbox") => rowCount(db, table);

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await smtp.close();
});

let db: Db;
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: smtp.url });
  smtp.clear();
  await saveCatalogue(db, [CAP]);
});

describe("POST /api/badge_orders.php sent again", () => {
  it("the same order is a 200 with the same reference, one row and one email", async () => {
    const first = await readJson<{ ok: boolean; id: string; orderUrl: string }>(await postBadge(badge()));
    expect(first.status).toBe(200);
    const again = await readJson(await postBadge(badge({ email: "Jane@Example.org", paymentReference: "skl4q2zb7x" })));
    expect([again.status, again.body]).toEqual([200, { ok: true, id: first.body.id, orderUrl: first.body.orderUrl, replayed: true, message: ORDER_REPLAYED }]);
    expect(await count("badge_orders")).toBe(1);
    await drainOutbox();
    expect(smtp.messages).toHaveLength(1);
  });

  it("another person's order with the code is a 409 with today's sentence", async () => {
    const first = await readJson<{ id: string; orderUrl: string }>(await postBadge(badge()));
    const error = await apiError(await postBadge(badge({ email: "someone.else@example.org" })), 409);
    expect(error).toBe(PAYMENT_CODE_USED);
    expect(error).not.toContain(first.body.id);
    expect(await count("badge_orders")).toBe(1);
  });

  it("an Idempotency-Key: the same key and body answer the stored order, another body is a 409", async () => {
    const key = { "Idempotency-Key": "c0ffee-order-1" };
    const first = await readJson<{ id: string; orderUrl: string }>(await postBadge(badge(), key, CALLER));
    expect(first.status).toBe(200);
    // Keys in another order are the same body.
    const { paymentReference, ...rest } = badge();
    const again = await readJson(await postBadge({ paymentReference, ...rest }, key, CALLER));
    expect([again.status, again.body]).toEqual([200, { ok: true, id: first.body.id, orderUrl: first.body.orderUrl, replayed: true, message: ORDER_REPLAYED }]);
    expect(await apiError(await postBadge(badge({ paymentReference: "QAZ1234567" }), key, CALLER), 409)).toBe(IDEMPOTENCY_KEY_REUSED);
    expect(await count("badge_orders")).toBe(1);
    await drainOutbox();
    expect(smtp.messages).toHaveLength(1);
  });

  it("an Idempotency-Key is the caller's own: another caller's same key places its own order and learns nothing", async () => {
    const key = { "Idempotency-Key": "shared-key-1" };
    expect((await postBadge(badge(), key, "10.43.0.1")).status).toBe(200);
    const other = await readJson<{ id: string; replayed?: boolean }>(
      await postBadge(badge({ name: "Amani Otieno", email: "amani@example.org", paymentReference: "QAZ1234567" }), key, "10.43.0.2"),
    );
    expect(other.status).toBe(200);
    expect(other.body.replayed).toBeUndefined();
    expect(await count("badge_orders")).toBe(2);
  });

  it("an Idempotency-Key expires after a day: then it is a new key", async () => {
    const key = { "Idempotency-Key": "old-key-1" };
    expect((await postBadge(badge(), key, CALLER)).status).toBe(200);
    await db.updateTable("order_idempotency_keys").set({ created_at: new Date(Date.now() - 25 * 3600_000).toISOString() }).execute();
    const later = await postBadge(badge({ name: "Amani Otieno", email: "amani@example.org", paymentReference: "QAZ1234567" }), key, CALLER);
    expect(later.status).toBe(200);
    expect(await count("badge_orders")).toBe(2);
    expect((await db.selectFrom("order_idempotency_keys").selectAll().execute()).length).toBe(1);
  });

  it.each([
    ["empty", ""],
    ["longer than 100 characters", "k".repeat(101)],
    ["not ASCII", "caf\u00e9"],
    ["a control character", "a\x7fb"],
  ])("an Idempotency-Key that is %s is a 400 with a sentence, and nothing is stored", async (_, value) => {
    expect(await apiError(await postBadge(badge(), { "Idempotency-Key": value }), 400)).toBe(IDEMPOTENCY_KEY_INVALID);
    expect(await count("badge_orders")).toBe(0);
  });

  it("a key of 100 printable characters is taken", async () => {
    expect((await postBadge(badge(), { "Idempotency-Key": "~ ".repeat(49) + "ok" })).status).toBe(200);
  });
});

describe("POST /api/merch_orders.php sent again", () => {
  it("the same order is a 200 with the same reference, one row, its emails once", async () => {
    const first = await readJson<{ id: string; orderUrl: string }>(await postMerch(merch()));
    expect(first.status).toBe(200);
    const again = await readJson(await postMerch(merch()));
    expect([again.status, again.body]).toEqual([200, { ok: true, id: first.body.id, orderUrl: first.body.orderUrl, replayed: true, message: ORDER_REPLAYED }]);
    expect(await count("merch_orders")).toBe(1);
    await drainOutbox();
    expect(smtp.messages).toHaveLength(2);
  });

  it("another person's order, or another bag, with the code is a 409 with today's sentence", async () => {
    await postMerch(merch());
    expect(await apiError(await postMerch(merch({ customerEmail: "someone.else@example.org" })), 409)).toBe(PAYMENT_CODE_USED);
    expect(await apiError(await postMerch(merch({ items: [{ itemId: "SL-CAP", quantity: 3 }] })), 409)).toBe(PAYMENT_CODE_USED);
    expect(await count("merch_orders")).toBe(1);
  });

  it("an Idempotency-Key: repeat answered, another body a 409, a bad key a 400", async () => {
    const key = { "Idempotency-Key": "merch-7" };
    const first = await readJson<{ id: string; orderUrl: string }>(await postMerch(merch(), key, CALLER));
    const again = await readJson(await postMerch(merch(), key, CALLER));
    expect([again.status, again.body]).toEqual([200, { ok: true, id: first.body.id, orderUrl: first.body.orderUrl, replayed: true, message: ORDER_REPLAYED }]);
    expect(await apiError(await postMerch(merch({ paymentReference: "QAZ1234567" }), key, CALLER), 409)).toBe(IDEMPOTENCY_KEY_REUSED);
    expect(await apiError(await postMerch(merch({ paymentReference: "QAZ7654321" }), { "Idempotency-Key": "x".repeat(101) }), 400)).toBe(IDEMPOTENCY_KEY_INVALID);
    expect(await count("merch_orders")).toBe(1);
  });
});

/** The /event order form as a browser sends it (multipart, the photo input left empty). */
function badgeForm(fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("intent", "order");
  for (const [k, v] of Object.entries({ tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", paymentReference: "SKL4Q2ZB7X", ...fields })) form.append(k, v);
  form.append("portrait", new Blob([]), "");
  return new Request(`${ORIGIN}/event?tier=t3`, { method: "POST", body: form, headers: { Origin: ORIGIN } });
}

describe("the order forms sent again", () => {
  it("/event: the same confirmation answers with the stored order's reference and page, 'We already have your order'", async () => {
    const first = reply(await eventRoute.action(args(badgeForm(), nextIp())));
    expect(first.data).toMatchObject({ status: "success", intent: "order" });
    const placed = (first.data as { result: { id: string; orderPath: string } }).result;
    const again = reply(await eventRoute.action(args(badgeForm({ email: "JANE@example.org" }), nextIp())));
    expect(again.status).toBe(200);
    expect(again.data).toMatchObject({ status: "success", intent: "order", result: { id: placed.id, orderPath: placed.orderPath, replayed: true } });
    expect(await count("badge_orders")).toBe(1);
    const other = reply(await eventRoute.action(args(badgeForm({ email: "someone.else@example.org" }), nextIp())));
    expect(other.status).toBe(409);
    expect(other.data).toMatchObject({ status: "error", message: PAYMENT_CODE_USED });
  });

  it("/merchandise checkout: sent again after the bag was emptied, answered with the stored order", async () => {
    const { bagId } = await addToBag(db, null, { itemId: "SL-CAP", quantity: 2 });
    const form = { intent: "checkout", customerName: "Achieng Otieno", customerEmail: "achieng@example.org", customerPhone: "+254 712 345 678", paymentReference: "SKL4Q2ZB7X" };
    const post = () => storeRoute.action(args(formPost("/merchandise?checkout=1", form, { cookie: `bag=${bagId}` }), nextIp()));
    const first = reply(await post());
    expect(first.data).toMatchObject({ status: "success", intent: "checkout" });
    const placed = (first.data as { result: { id: string; orderPath: string } }).result;
    const again = reply(await post());
    expect(again.data).toMatchObject({ status: "success", intent: "checkout", result: { id: placed.id, orderPath: placed.orderPath, replayed: true } });
    expect(await count("merch_orders")).toBe(1);
  });
});
