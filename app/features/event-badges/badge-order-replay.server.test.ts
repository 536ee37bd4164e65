import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import { freshApp } from "../../../tests/support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/support/smtp";
import { storedNames } from "../../../tests/support/stored-files";
import { IDEMPOTENCY_KEY_REUSED } from "../payment-codes/order-replay.server";
import { PAYMENT_CODE_USED } from "../payment-codes/payment-codes.server";
import { BadgeOrderSchema } from "./badge-order.schema";
import { submitBadgeOrder } from "./badge-orders.server";
import { processPortrait } from "./portrait.server";
import { domainRefusal as refusal, rowCount as count } from "../../../tests/support/domain";

// A supporter whose phone lost the answer sends the same confirmation again: they are answered
// with the order already stored, never told their code was used by someone else.

const input = (fields: Record<string, unknown> = {}) =>
  BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", paymentReference: "SKL4Q2ZB7X", ...fields });

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
});

describe("submitBadgeOrder sent again", () => {
  it.each([
    ["as it was", {}],
    ["with the email in other letters' case and the code as the SMS", { email: "Jane@Example.ORG", paymentReference: "skl4q2zb7x Confirmed. Ksh1,300.00 sent" }],
    ["with another name and notes", { name: "Jane W.", notes: "Sorry, sent twice?" }],
  ])("%s is answered with the stored order: same reference and page, one row, one email", async (_, again) => {
    const first = await submitBadgeOrder(db, input(), null);
    expect(first.replayed).toBeUndefined();
    const second = await submitBadgeOrder(db, input(again), null);
    expect(second).toEqual({ id: first.id, orderPath: first.orderPath, replayed: true, payment: { by: "code" } });
    expect(await count(db, "badge_orders")).toBe(1);
    expect(await count(db, "payment_codes")).toBe(1);
    await drainOutbox();
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.mail.subject).toContain(first.id);
  });

  it("another person's order with the code stays a 409 with the same sentence, and says nothing of it", async () => {
    const first = await submitBadgeOrder(db, input(), null);
    const err = await refusal(() => submitBadgeOrder(db, input({ email: "someone.else@example.org" }), null));
    expect(err).toEqual({ status: 409, message: PAYMENT_CODE_USED });
    expect(err.message).not.toContain(first.id);
    expect(await count(db, "badge_orders")).toBe(1);
  });

  it("the same email with another tier is another order: a 409", async () => {
    await submitBadgeOrder(db, input(), null);
    expect(await refusal(() => submitBadgeOrder(db, input({ tierKey: "t1" }), null))).toEqual({ status: 409, message: PAYMENT_CODE_USED });
    expect(await count(db, "badge_orders")).toBe(1);
  });

  it("a code a merch order holds is a 409 even from the same email", async () => {
    await db.insertInto("payment_codes").values({ code: "SKL4Q2ZB7X", kind: "merch", order_id: "MO-000001", created_at: new Date().toISOString() }).execute();
    expect(await refusal(() => submitBadgeOrder(db, input(), null))).toEqual({ status: 409, message: PAYMENT_CODE_USED });
  });

  it("a retry with its photo keeps no second copy of the photo", async () => {
    const portrait = await processPortrait(new Uint8Array(await sharp({ create: { width: 800, height: 800, channels: 3, background: "#fff" } }).png().toBuffer()));
    const first = await submitBadgeOrder(db, input(), portrait);
    const before = await storedNames("badge-orders");
    const again = await submitBadgeOrder(db, input(), portrait);
    expect(again.id).toBe(first.id);
    expect(await storedNames("badge-orders")).toEqual(before);
  });

  it("ten copies at once: one order, every copy answered with it", async () => {
    const all = await Promise.all(Array.from({ length: 10 }, () => submitBadgeOrder(db, input(), null)));
    const ids = new Set(all.map((r) => r.id));
    expect(ids.size).toBe(1);
    expect(all.filter((r) => r.replayed)).toHaveLength(9);
    expect(new Set(all.map((r) => r.orderPath)).size).toBe(1);
    expect(await count(db, "badge_orders")).toBe(1);
    expect(await count(db, "outbox")).toBe(1);
  });

  it("ten at once, five people sharing one code: one order, its sender's copies answered, the others 409", async () => {
    const settled = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => submitBadgeOrder(db, input({ email: i % 2 ? "jane@example.org" : `other${i}@example.org` }), null)),
    );
    const ok = settled.filter((s) => s.status === "fulfilled").map((s) => (s as PromiseFulfilledResult<{ id: string }>).value);
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
    expect(new Set(ok.map((o) => o.id)).size).toBe(1);
    for (const r of refused) expect(r.reason).toMatchObject({ code: "conflict", message: PAYMENT_CODE_USED });
    expect(await count(db, "badge_orders")).toBe(1);
    const row = await db.selectFrom("badge_orders").select("email").executeTakeFirstOrThrow();
    // Whoever came first holds the code; only that person's copies are answered with it.
    expect(ok.length).toBe(row.email === "jane@example.org" ? 5 : 1);
  });
});

describe("submitBadgeOrder with an Idempotency-Key", () => {
  const key = (bodyHash: string, k = "retry-1") => ({ idempotency: { key: k, bodyHash } });

  it("is kept with the order; the same key and body answer that order", async () => {
    const first = await submitBadgeOrder(db, input(), null, key("h1"));
    expect(await db.selectFrom("order_idempotency_keys").selectAll().execute()).toMatchObject([
      { kind: "badge", idem_key: "retry-1", body_hash: "h1", order_id: first.id },
    ]);
    // Even a code typed differently: the key says which request it is.
    const again = await submitBadgeOrder(db, input({ paymentReference: "QAZ1234567" }), null, key("h1"));
    expect(again).toEqual({ id: first.id, orderPath: first.orderPath, replayed: true, payment: { by: "code" } });
    expect(await count(db, "badge_orders")).toBe(1);
    expect(await count(db, "outbox")).toBe(1);
  });

  it("the same key with another body is a 409 and stores nothing", async () => {
    await submitBadgeOrder(db, input(), null, key("h1"));
    const err = await refusal(() => submitBadgeOrder(db, input({ paymentReference: "QAZ1234567" }), null, key("h2")));
    expect(err).toEqual({ status: 409, message: IDEMPOTENCY_KEY_REUSED });
    expect(await count(db, "badge_orders")).toBe(1);
    expect(await count(db, "payment_codes")).toBe(1);
  });

  it("the same key at once with two codes and bodies: one order, the other a 409", async () => {
    const settled = await Promise.allSettled([
      submitBadgeOrder(db, input({ paymentReference: "QAZ1234567" }), null, key("h1")),
      submitBadgeOrder(db, input({ paymentReference: "QAZ7654321" }), null, key("h2")),
    ]);
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    const [refused] = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
    expect(refused!.reason).toMatchObject({ code: "conflict", message: IDEMPOTENCY_KEY_REUSED });
    expect(await count(db, "badge_orders")).toBe(1);
    expect(await count(db, "payment_codes")).toBe(1);
    expect(await count(db, "order_idempotency_keys")).toBe(1);
  });

  it("a key is the badge API's own: the same key on a merch order is not this one", async () => {
    await db.insertInto("order_idempotency_keys").values({ kind: "merch", idem_key: "retry-1", body_hash: "other", order_id: "MO-000001", created_at: new Date().toISOString() }).execute();
    const placed = await submitBadgeOrder(db, input(), null, key("h1"));
    expect(placed.replayed).toBeUndefined();
    expect(await count(db, "badge_orders")).toBe(1);
  });
});
