import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/lib/db/db.server";
import { freshApp } from "../../../tests/support/reset";
import { IDEMPOTENCY_KEY_REUSED } from "../payment-codes/order-replay.server";
import { PAYMENT_CODE_USED } from "../payment-codes/payment-codes.server";
import type { MerchItem } from "./merch";
import { CheckoutSchema } from "./merch.schema";
import { addToBag, checkoutBag, getBag, saveCatalogue, submitMerchOrder } from "./merch.server";
import { domainRefusal as refusal, rowCount as count } from "../../../tests/support/domain";

// A shopper whose phone lost the answer sends the same checkout again: they are answered with
// the order already stored, never told their code was used by someone else.

const checkout = (fields: Record<string, unknown> = {}) =>
  CheckoutSchema.parse({
    customerName: "Achieng Otieno",
    customerEmail: "achieng@example.org",
    customerPhone: "+254 712 345 678",
    paymentReference: "SKL4Q2ZB7X",
    ...fields,
  });

const item = (id: string, price: number): MerchItem => ({
  id,
  slug: id.toLowerCase(),
  name: id,
  description: "",
  price,
  currency: "KES",
  impact: "",
  image: "",
  tags: [],
  available: true,
  colors: [],
  sizes: [],
});
const [A, B] = [item("SL-CAP", 900), item("SL-TOTE", 1200)];
const lineOf = (itemId: string, quantity: number) => ({ itemId, quantity, color: null, size: null });

let db: Db;
beforeEach(async () => {
  db = await freshApp();
  await saveCatalogue(db, [A!, B!]);
});

describe("submitMerchOrder sent again", () => {
  it("the same email and the same lines (in any order) answer the stored order: one row, its two emails once", async () => {
    const first = await submitMerchOrder(db, checkout(), [lineOf(A!.id, 2), lineOf(B!.id, 1)]);
    const queued = await count(db, "outbox");
    const again = await submitMerchOrder(db, checkout({ customerEmail: "ACHIENG@example.org", paymentReference: "skl4q2zb7x" }), [lineOf(B!.id, 1), lineOf(A!.id, 2)]);
    expect(again).toEqual({ ...first, payment: { by: "code" }, replayed: true });
    expect(await count(db, "merch_orders")).toBe(1);
    expect(await count(db, "outbox")).toBe(queued);
  });

  it.each([
    ["another email", { customerEmail: "someone.else@example.org" }, [lineOf("A", 2), lineOf("B", 1)]],
    ["another quantity", {}, [lineOf("A", 3), lineOf("B", 1)]],
    ["a line fewer", {}, [lineOf("A", 2)]],
  ])("%s is another order: a 409 with today's sentence", async (_, fields, lines) => {
    const real = (l: { itemId: string; quantity: number }) => lineOf(l.itemId === "A" ? A!.id : B!.id, l.quantity);
    await submitMerchOrder(db, checkout(), [lineOf(A!.id, 2), lineOf(B!.id, 1)]);
    expect(await refusal(() => submitMerchOrder(db, checkout(fields), lines.map(real)))).toEqual({ status: 409, message: PAYMENT_CODE_USED });
    expect(await count(db, "merch_orders")).toBe(1);
  });

  it("ten copies at once: one order, every copy answered with it", async () => {
    const all = await Promise.all(Array.from({ length: 10 }, () => submitMerchOrder(db, checkout(), [lineOf(A!.id, 1)])));
    expect(new Set(all.map((r) => r.id)).size).toBe(1);
    expect(all.filter((r) => r.replayed)).toHaveLength(9);
    expect(await count(db, "merch_orders")).toBe(1);
    expect(await count(db, "outbox")).toBe(2);
  });

  it("the same Idempotency-Key and body answer the stored order; another body is a 409", async () => {
    const first = await submitMerchOrder(db, checkout(), [lineOf(A!.id, 1)], { idempotency: { key: "k-1", bodyHash: "h1" } });
    const again = await submitMerchOrder(db, checkout(), [lineOf(A!.id, 1)], { idempotency: { key: "k-1", bodyHash: "h1" } });
    expect(again).toEqual({ ...first, payment: { by: "code" }, replayed: true });
    const other = checkout({ paymentReference: "QAZ1234567" });
    expect(await refusal(() => submitMerchOrder(db, other, [lineOf(A!.id, 1)], { idempotency: { key: "k-1", bodyHash: "h2" } }))).toEqual({
      status: 409,
      message: IDEMPOTENCY_KEY_REUSED,
    });
    expect(await count(db, "merch_orders")).toBe(1);
  });
});

describe("checkoutBag sent again", () => {
  it("after the first checkout emptied the bag, the same code and email answer the stored order", async () => {
    const { bagId } = await addToBag(db, null, { itemId: A!.id, quantity: 2 });
    const first = await checkoutBag(db, bagId, checkout());
    expect((await getBag(db, bagId)).count).toBe(0);
    const again = await checkoutBag(db, bagId, checkout());
    expect(again).toEqual({ ...first, payment: { by: "code" }, replayed: true });
    expect(await count(db, "merch_orders")).toBe(1);
  });

  it("an empty bag with another person's email is still told the bag is empty, nothing of the order", async () => {
    const { bagId } = await addToBag(db, null, { itemId: A!.id, quantity: 2 });
    const first = await checkoutBag(db, bagId, checkout());
    const err = await refusal(() => checkoutBag(db, bagId, checkout({ customerEmail: "someone.else@example.org" })));
    expect(err.status).toBe(400);
    expect(err.message).not.toContain(first.id);
  });
});
