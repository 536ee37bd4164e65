import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/lib/db/db.server";
import { freshApp } from "../../../tests/support/reset";
import { BadgeOrderSchema } from "../event-badges/badge-order.schema";
import { submitBadgeOrder } from "../event-badges/badge-orders.server";
import type { MerchItem } from "../merch/merch";
import { CheckoutSchema } from "../merch/merch.schema";
import { saveCatalogue, submitMerchOrder } from "../merch/merch.server";
import { staff } from "~/lib/core/actor";
import { httpErrorOf } from "~/lib/http/http.server";
import { getBadgeOrder, listMerchOrders, setBadgeOrderStatus } from "./orders.server";

/** The orders as staff read them: the order features' fields, and where the payment stands. */

const submit = (db: Db, fields: Record<string, unknown>) =>
  submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", ...fields }), null);

const CAP: MerchItem = {
  id: "SL-CAP",
  slug: "lamp-cap",
  name: "Lamp Cap",
  price: 900,
  description: "",
  currency: "KES",
  impact: "",
  image: "/images/merch/lamp-cap.webp",
  tags: [],
  available: true,
  colors: [],
  sizes: [],
};
const checkout = (fields: Record<string, unknown>) =>
  CheckoutSchema.parse({ customerName: "Achieng Otieno", customerEmail: "achieng@example.org", customerPhone: "", notes: "", ...fields });
const line = (itemId: string) => ({ itemId, quantity: 1, color: null, size: null });

let db: Db;
beforeEach(async () => {
  db = await freshApp();
  await saveCatalogue(db, [CAP]);
});

describe("getBadgeOrder", () => {
  it("reads the order with exactly the admin fields of spec section 3 (and the share link)", async () => {
    const { id } = await submit(db, { tierKey: "t2", name: "Otieno", email: "o@example.org", paymentReference: "SKL4Q2ZB7X" });
    const view = await getBadgeOrder(db, id);
    expect(view).toEqual({
      id,
      name: "Otieno",
      email: "o@example.org",
      phone: "",
      hardCopy: false,
      tierKey: "t2",
      tierName: "Helping Hand",
      amount: 500,
      paymentReference: "SKL4Q2ZB7X",
      notes: "",
      status: "pending",
      createdAt: expect.any(String),
      approvedAt: null,
      delivery: null,
      portraitPath: null,
      badgePath: null,
      posterPath: null,
      shareUrl: "http://site.test/event?utm_source=share&utm_medium=badge&utm_campaign=event_t2",
      staffNote: "",
      // Not on the supporter wall unless they say so.
      wall: { optIn: false, name: "", portrait: false, hidden: false },
      badgeRevoked: null,
      // No payment with that code in M-Pesa's records yet.
      payment: { state: "unmatched", receivedAmount: null, receivedAt: null, payerName: null, receipts: [] },
    });
  });
});

describe("listMerchOrders", () => {
  async function seed() {
    const a = await submitMerchOrder(db, checkout({ customerName: "Amina", customerEmail: "amina@example.org", paymentReference: "AMN1234567" }), [line("SL-CAP")]);
    const b = await submitMerchOrder(db, checkout({ customerName: "Brian_K", customerEmail: "brian@example.org", paymentReference: "BRN7654321" }), [line("SL-CAP")]);
    for (const [i, id] of [a.id, b.id].entries()) {
      await db.updateTable("merch_orders").set({ ts: new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString() }).where("id", "=", id).execute();
    }
    return { a: a.id, b: b.id };
  }

  it("lists newest first, with the admin fields of spec section 3", async () => {
    const { a, b } = await seed();
    const orders = await listMerchOrders(db);
    expect(orders.map((o) => o.id)).toEqual([b, a]);
    expect(Object.keys(orders[0]!).sort()).toEqual(
      ["id", "ts", "status", "reviewedAt", "staffNotes", "customerName", "customerEmail", "customerPhone", "notes", "paymentReference", "total", "currency", "items", "payment"].sort(),
    );
  });
});

describe("setBadgeOrderStatus", () => {
  it("a payment that needs the tick stops a one-step approval before anything is drawn", async () => {
    const { id } = await submit(db, { paymentReference: "QZ00000001" });
    await db
      .insertInto("received_payments")
      .values({ code: "QZ00000001", amount: 5, paid_at: new Date().toISOString(), payer_name: "SHORT", payer_phone: "", account_ref: "", shortcode: "880100", source: "statement", raw: "{}", received_at: new Date().toISOString(), odd_parts: "" })
      .execute();
    const refused = await setBadgeOrderStatus(db, id, "approved", staff("10.0.0.42"), { drawKit: true }).then(
      () => null,
      (e: unknown) => httpErrorOf(e),
    );
    expect(refused?.status).toBe(409);
    expect(await db.selectFrom("badge_orders").select(["status", "badge_file", "poster_file"]).where("id", "=", id).executeTakeFirstOrThrow()).toMatchObject({
      status: "pending",
      badge_file: null,
      poster_file: null,
    });
  });
});
