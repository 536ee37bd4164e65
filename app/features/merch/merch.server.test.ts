import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import { site } from "~/lib/core/site";
import { freshApp } from "../../../tests/support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/support/smtp";
import { PAYMENT_CODE_USED } from "../payment-codes/payment-codes.server";
import { FALLBACK_CATALOGUE, type MerchItem } from "./merch";
import { AddToBagSchema, CheckoutSchema } from "./merch.schema";
import {
  addToBag,
  changeBagLine,
  checkoutBag,
  getBag,
  listItems,
  listMerchOrders,
  loadCatalogue,
  priceLines,
  saveCatalogue,
  setMerchOrderStatus,
  submitMerchOrder,
  viewBag,
} from "./merch.server";
import { domainRefusal as httpError, rowCount as count } from "../../../tests/support/domain";

const ID = /^MO-[0-9A-Z]{6}$/;
const RESTOCKING = "This item is restocking and cannot be ordered right now.";

const item = (over: Partial<MerchItem> & Pick<MerchItem, "id" | "slug" | "name" | "price">): MerchItem => ({
  description: "",
  currency: "KES",
  impact: "",
  image: `/images/merch/${over.slug}.webp`,
  tags: [],
  available: true,
  colors: [],
  sizes: [],
  ...over,
});

const HOODIE = item({
  id: "SL-HOODIE",
  slug: "street-light-hoodie",
  name: "Street Light Hoodie",
  price: 3500,
  colors: [
    { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie-blue.webp" },
    { label: "Lamp Amber", swatch: "#e0892b" },
  ],
  sizes: ["S", "M", "L"],
});
const TOTE = item({ id: "SL-TOTE", slug: "street-light-tote", name: "Street Light Tote", price: 1200, sizes: ["One size"] });
const CAP = item({ id: "SL-CAP", slug: "lamp-cap", name: "Lamp Cap", price: 900 });
const MUG = item({ id: "SL-MUG", slug: "enamel-mug", name: "Enamel Camp Mug", price: 800, available: false });
const DOLLAR = item({ id: "SL-USD", slug: "usd-print", name: "Poster (USD)", price: 20, currency: "USD" });
const CATALOGUE = [HOODIE, TOTE, CAP, MUG, DOLLAR];

let codes = 0;
const nextCode = () => `QM${String(++codes).padStart(8, "0")}`;

const checkout = (fields: Record<string, unknown> = {}) =>
  CheckoutSchema.parse({
    customerName: "Achieng Otieno",
    customerEmail: "Achieng@Example.org",
    customerPhone: "+254 712 345 678",
    notes: "Deliver to Westlands, please.",
    paymentReference: nextCode(),
    ...fields,
  });

type Line = { itemId: string; color: string | null; size: string | null; quantity: number };
/** A line as a client might send it, with its own (ignored) price and name. */
type SentLine = Line & { price?: number; name?: string };
const line = (itemId: string, quantity = 1, color: string | null = null, size: string | null = null): Line => ({
  itemId,
  quantity,
  color,
  size,
});
const hoodie = (quantity = 1, color = "Night Blue", size = "M") => line("SL-HOODIE", quantity, color, size);

const orderRow = (db: Db, id: string) => db.selectFrom("merch_orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const outbox = (db: Db) => db.selectFrom("outbox").select(["kind", "to_address", "reply_to"]).orderBy("id").execute();

let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
});
afterAll(async () => {
  await smtp.close();
});

let db: Db;
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: smtp.url, ORG_INBOX: undefined });
  smtp.clear();
  await saveCatalogue(db, CATALOGUE);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("the catalogue", () => {
  it("saveCatalogue replaces the whole list, keeping the order staff gave", async () => {
    expect((await listItems(db)).map((i) => i.id)).toEqual(["SL-HOODIE", "SL-TOTE", "SL-CAP", "SL-MUG", "SL-USD"]);
    expect(await listItems(db)).toEqual(CATALOGUE);
    await saveCatalogue(db, [CAP, HOODIE]);
    expect((await listItems(db)).map((i) => i.id)).toEqual(["SL-CAP", "SL-HOODIE"]);
  });

  it("loadCatalogue falls back to the built-in hoodie and tote when the catalogue cannot be read", async () => {
    expect(await loadCatalogue(db)).toEqual({ items: CATALOGUE, fallback: false });
    await db.schema.dropTable("merch_items").execute();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { items, fallback } = await loadCatalogue(db);
    expect(fallback).toBe(true);
    expect(items).toBe(FALLBACK_CATALOGUE);
    expect(items.map((i) => [i.price, i.currency, i.sizes, i.colors.length])).toEqual([
      [3500, "KES", ["S", "M", "L", "XL", "2XL"], 3],
      [1200, "KES", ["One size"], 0],
    ]);
    expect(logged).toHaveBeenCalledOnce();
  });
});

describe("the bag", () => {
  const add = (bagId: string | null, input: { itemId: string; color?: string; size?: string; quantity?: number }) =>
    addToBag(db, bagId, { quantity: 1, ...input });

  it("adding the same item, colour and size merges by adding quantities", async () => {
    const first = await add(null, { itemId: "SL-HOODIE", color: "Night Blue", size: "M", quantity: 2 });
    expect(first.bagId).toMatch(/^[A-Za-z0-9_-]{20,40}$/);
    const { bagId, bag } = await add(first.bagId, { itemId: "SL-HOODIE", color: "Night Blue", size: "M", quantity: 3 });
    expect(bagId).toBe(first.bagId);
    expect(bag.lines).toHaveLength(1);
    expect(bag.lines[0]).toEqual({
      key: "SL-HOODIE|Night Blue|M",
      itemId: "SL-HOODIE",
      slug: "street-light-hoodie",
      name: "Street Light Hoodie",
      price: 3500,
      quantity: 5,
      color: { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie-blue.webp" },
      size: "M",
      image: "/images/merch/hoodie-blue.webp",
      currency: "KES",
      available: true,
    });
    expect(bag).toMatchObject({ count: 5, total: 17500, currency: "KES" });
    expect(await getBag(db, bagId)).toEqual(bag);
  });

  it("a different colour or size is a separate line; items without options key with '-'", async () => {
    const { bagId } = await add(null, { itemId: "SL-HOODIE", color: "Night Blue", size: "M" });
    await add(bagId, { itemId: "SL-HOODIE", color: "Night Blue", size: "L" });
    await add(bagId, { itemId: "SL-HOODIE", color: "Lamp Amber", size: "M" });
    await add(bagId, { itemId: "SL-CAP", quantity: 2 });
    const { bag } = await add(bagId, { itemId: "SL-TOTE", size: "One size" });
    expect(bag.lines.map((l) => [l.key, l.quantity])).toEqual([
      ["SL-HOODIE|Night Blue|M", 1],
      ["SL-HOODIE|Night Blue|L", 1],
      ["SL-HOODIE|Lamp Amber|M", 1],
      ["SL-CAP|-|-", 2],
      ["SL-TOTE|-|One size", 1],
    ]);
    expect(bag.lines[2]!.image).toBe(HOODIE.image);
    expect(bag).toMatchObject({ count: 6, total: 3 * 3500 + 2 * 900 + 1200 });
  });

  it("two adds to one bag at the same moment both count", async () => {
    const { bagId } = await add(null, { itemId: "SL-CAP" });
    await Promise.all([add(bagId, { itemId: "SL-CAP", quantity: 2 }), add(bagId, { itemId: "SL-CAP", quantity: 3 })]);
    expect((await getBag(db, bagId)).lines.map((l) => l.quantity)).toEqual([6]);
  });

  it("changing a quantity never goes below 1 (nor above 50); remove deletes the line", async () => {
    const { bagId } = await add(null, { itemId: "SL-HOODIE", color: "Night Blue", size: "M", quantity: 3 });
    await add(bagId, { itemId: "SL-CAP" });
    const key = "SL-HOODIE|Night Blue|M";
    expect((await changeBagLine(db, bagId, key, 0)).lines[0]!.quantity).toBe(1);
    expect((await changeBagLine(db, bagId, key, -4)).lines[0]!.quantity).toBe(1);
    expect((await changeBagLine(db, bagId, key, 7)).lines[0]!.quantity).toBe(7);
    expect((await changeBagLine(db, bagId, key, 80)).lines[0]!.quantity).toBe(50);
    const after = await changeBagLine(db, bagId, key, "remove");
    expect(after.lines.map((l) => l.key)).toEqual(["SL-CAP|-|-"]);
    expect(after).toMatchObject({ count: 1, total: 900 });
    expect((await changeBagLine(db, bagId, "SL-CAP|-|-", "remove")).lines).toEqual([]);
  });

  it("an unknown line key or a bag that does not exist changes nothing", async () => {
    const { bagId } = await add(null, { itemId: "SL-CAP" });
    expect((await changeBagLine(db, bagId, "SL-NOPE|-|-", "remove")).lines).toHaveLength(1);
    expect(await changeBagLine(db, null, "SL-CAP|-|-", 3)).toEqual({ lines: [], count: 0, total: 0, currency: "KES" });
    expect(await getBag(db, "not a bag id")).toEqual({ lines: [], count: 0, total: 0, currency: "KES" });
  });

  it.each([
    ["no colour for an item that has colours", { itemId: "SL-HOODIE", size: "M" }, 400, "Select a colour to continue."],
    ["a colour the item does not have", { itemId: "SL-HOODIE", color: "Pink", size: "M" }, 400, "Select a colour to continue."],
    ["no size for an item that has sizes", { itemId: "SL-HOODIE", color: "Night Blue" }, 400, "Select a size to continue."],
    ["a size the item does not have", { itemId: "SL-HOODIE", color: "Night Blue", size: "XXXL" }, 400, "Select a size to continue."],
    ["no size for the one-size tote", { itemId: "SL-TOTE" }, 400, "Select a size to continue."],
    ["an unknown item", { itemId: "SL-NOPE" }, 400, "That item is not in the store any more."],
    ["a restocking item", { itemId: "SL-MUG" }, 409, `Enamel Camp Mug: ${RESTOCKING}`],
  ])("%s is refused", async (_, input, status, message) => {
    expect(await httpError(() => add(null, input))).toEqual({ status, message });
    expect(await count(db, "merch_orders")).toBe(0);
    expect(await db.selectFrom("bags").selectAll().execute()).toEqual([]);
  });

  it("the add form's quantity below 1 (or not a whole number) gives 'Quantity must be at least 1.'", () => {
    for (const quantity of ["0", "-2", "1.5", "abc", 0]) {
      const r = AddToBagSchema.safeParse({ itemId: "SL-CAP", quantity });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]!.message).toBe("Quantity must be at least 1.");
    }
    expect(AddToBagSchema.parse({ itemId: "SL-CAP" }).quantity).toBe(1);
  });

  it("addToBag itself refuses a quantity below 1 with 'Quantity must be at least 1.'", async () => {
    for (const quantity of [0, -3]) {
      expect(await httpError(() => add(null, { itemId: "SL-CAP", quantity }))).toEqual({
        status: 400,
        message: "Quantity must be at least 1.",
      });
    }
    expect(await db.selectFrom("bags").selectAll().execute()).toEqual([]);
  });

  it("a line over 50 is refused with the limit named; the line keeps its quantity", async () => {
    const { bagId } = await add(null, { itemId: "SL-CAP", quantity: 30 });
    expect(await httpError(() => add(bagId, { itemId: "SL-CAP", quantity: 21 }))).toEqual({
      status: 400,
      message: "Quantity must be at most 50.",
    });
    expect((await getBag(db, bagId)).lines[0]!.quantity).toBe(30);
    expect((await add(bagId, { itemId: "SL-CAP", quantity: 20 })).bag.lines[0]!.quantity).toBe(50);
  });

  it("the bag view prices from the catalogue as it is now; an item taken out of the catalogue drops out", async () => {
    const { bagId } = await add(null, { itemId: "SL-HOODIE", color: "Lamp Amber", size: "S", quantity: 2 });
    await add(bagId, { itemId: "SL-TOTE", size: "One size" });
    expect(await getBag(db, bagId)).toMatchObject({ count: 3, total: 2 * 3500 + 1200 });
    await saveCatalogue(db, [{ ...HOODIE, price: 4000, available: false }, CAP]);
    const bag = await getBag(db, bagId);
    expect(bag.lines.map((l) => [l.itemId, l.price, l.available])).toEqual([["SL-HOODIE", 4000, false]]);
    expect(bag).toMatchObject({ count: 2, total: 8000 });
  });
});

describe("priceLines", () => {
  it("total is the sum of catalogue price × quantity; prices sent with the lines are ignored", () => {
    const sent: SentLine[] = [
      { ...hoodie(2), price: 1, name: "Cheap hoodie" },
      { ...line("SL-CAP", 3), price: 0 },
      { ...line("SL-TOTE", 1, null, "One size"), price: -500 },
    ];
    const priced = priceLines(CATALOGUE, sent, "KES");
    expect(priced.total).toBe(2 * 3500 + 3 * 900 + 1200);
    expect(priced.currency).toBe("KES");
    expect(priced.lines).toEqual([
      {
        itemId: "SL-HOODIE",
        name: "Street Light Hoodie",
        price: 3500,
        quantity: 2,
        color: { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie-blue.webp" },
        size: "M",
      },
      { itemId: "SL-CAP", name: "Lamp Cap", price: 900, quantity: 3, color: null, size: null },
      { itemId: "SL-TOTE", name: "Street Light Tote", price: 1200, quantity: 1, color: null, size: "One size" },
    ]);
  });

  it("the client's currency may be lower-case or left out", () => {
    expect(priceLines(CATALOGUE, [line("SL-CAP")], "kes").total).toBe(900);
    expect(priceLines(CATALOGUE, [line("SL-CAP")]).currency).toBe("KES");
  });

  it.each([
    ["a currency other than the items'", [line("SL-CAP")], "USD", 400, "These items are priced in KES, not USD."],
    ["items in two currencies", [line("SL-CAP"), line("SL-USD")], undefined, 400, "Items priced in different currencies cannot share one order."],
    ["an unknown item", [line("SL-NOPE")], undefined, 400, "That item is not in the store any more."],
    ["a restocking item", [line("SL-MUG")], undefined, 409, `Enamel Camp Mug: ${RESTOCKING}`],
    ["quantity 0", [line("SL-CAP", 0)], undefined, 400, "Quantity must be at least 1."],
    ["a negative quantity", [line("SL-CAP", -1)], undefined, 400, "Quantity must be at least 1."],
    ["a fractional quantity", [line("SL-CAP", 1.5)], undefined, 400, "Quantity must be at least 1."],
    ["a quantity over 50", [line("SL-CAP", 51)], undefined, 400, "Quantity must be at most 50."],
    ["no lines", [], undefined, 400, "Your bag is empty."],
    ["a colour for a one-colour item", [line("SL-CAP", 1, "Red")], undefined, 400, "Lamp Cap comes in one colour only."],
  ])("%s is refused", async (_, lines, currency, status, message) => {
    expect(await httpError(() => priceLines(CATALOGUE, lines, currency))).toEqual({ status, message });
  });

  it("viewBag drops lines whose item is gone", () => {
    const view = viewBag([CAP], [line("SL-CAP", 2), line("SL-GONE", 5)]);
    expect(view.lines.map((l) => l.itemId)).toEqual(["SL-CAP"]);
    expect(view).toMatchObject({ count: 2, total: 1800 });
  });
});

describe("submitMerchOrder", () => {
  it("stores a pending order priced by the server and claims the payment code", async () => {
    const sent: SentLine[] = [{ ...hoodie(2), price: 1 }, line("SL-CAP", 1)];
    const result = await submitMerchOrder(db, checkout({ paymentReference: " skl4q2zb7x " }), sent, { clientCurrency: "KES" });
    expect(result).toEqual({ id: expect.stringMatching(ID), total: 7900, currency: "KES", orderPath: expect.stringMatching(/^\/orders\/MO-[0-9A-Z]{6}\?t=[\w-]{32}$/), payment: { by: "code", code: "SKL4Q2ZB7X" } });
    const row = await orderRow(db, result.id);
    expect(row).toMatchObject({
      id: result.id,
      customer_name: "Achieng Otieno",
      customer_email: "achieng@example.org",
      customer_phone: "+254 712 345 678",
      notes: "Deliver to Westlands, please.",
      payment_reference: "SKL4Q2ZB7X",
      total: 7900,
      currency: "KES",
      status: "pending",
      reviewed_at: null,
      staff_notes: "",
      supporter_note: "",
    });
    expect(Date.now() - Date.parse(row.ts)).toBeLessThan(10_000);
    expect(JSON.parse(row.items)).toEqual(priceLines(CATALOGUE, sent).lines);
    expect(await db.selectFrom("payment_codes").selectAll().execute()).toMatchObject([
      { code: "SKL4Q2ZB7X", kind: "merch", order_id: result.id },
    ]);
  });

  it("emails the customer 'order received' (items, total, code, what happens next) and the merch team, through SMTP", async () => {
    const { id } = await submitMerchOrder(db, checkout({ paymentReference: "SKL4Q2ZB7X" }), [hoodie(2), line("SL-CAP", 1)]);
    expect(await outbox(db)).toEqual([
      // Replies from the customer go to the merch team's inbox.
      { kind: "merch.received", to_address: "achieng@example.org", reply_to: site.merchEmail },
      { kind: "merch.notice", to_address: site.merchEmail, reply_to: "achieng@example.org" },
    ]);
    await drainOutbox();
    expect(smtp.messages.map((m) => m.envelope.to)).toEqual([["achieng@example.org"], [site.merchEmail]]);

    const customer = smtp.messages[0]!.mail;
    expect(customer.subject).toBe(`We received your merch order ${id}`);
    const text = customer.text!;
    expect(text).toContain(`Your order ${id} is pending review.`);
    expect(text).toContain("2 × Street Light Hoodie, Night Blue, M — KES 7,000");
    expect(text).toContain("1 × Lamp Cap — KES 900");
    expect(text).toContain("Total: KES 7,900 · M-Pesa code: SKL4Q2ZB7X");
    expect(text).toContain("What happens next: the merch team checks the payment (paybill 880100, account 321325)");
    expect(customer.html).toContain("Total: KES 7,900");

    const team = smtp.messages[1]!.mail;
    expect(team.subject).toBe(`New merch order ${id}: KES 7,900`);
    expect(team.replyTo?.text).toBe("achieng@example.org");
    expect(team.text).toContain("From Achieng Otieno <achieng@example.org>, +254 712 345 678.");
    expect(team.text).toContain("Notes: Deliver to Westlands, please.");
    expect(team.text).toContain("http://site.test/admin/merch-orders");
  });

  it("ORG_INBOX, when set, receives the merch team's notice", async () => {
    db = await freshApp({ SMTP_URL: smtp.url, ORG_INBOX: "team@example.org" });
    await saveCatalogue(db, CATALOGUE);
    await submitMerchOrder(db, checkout(), [line("SL-CAP")]);
    expect((await outbox(db)).map((m) => m.to_address)).toEqual(["achieng@example.org", "team@example.org"]);
  });

  it("a code already used by a badge order is a 409 with the ledger's message; nothing stored or queued", async () => {
    await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t1", name: "Jane", email: "jane@example.org", paymentReference: "SKL4Q2ZB7X" }), null);
    const queued = await count(db, "outbox");
    expect(await httpError(() => submitMerchOrder(db, checkout({ paymentReference: "skl4q2zb7x" }), [line("SL-CAP")]))).toEqual({
      status: 409,
      message: PAYMENT_CODE_USED,
    });
    expect(await count(db, "merch_orders")).toBe(0);
    expect(await count(db, "outbox")).toBe(queued);
  });

  it("a code used by a merch order cannot pay for a badge or a second merch order", async () => {
    await submitMerchOrder(db, checkout({ paymentReference: "SKL4Q2ZB7X" }), [line("SL-CAP")]);
    const badge = BadgeOrderSchema.parse({ tierKey: "t1", name: "Jane", email: "jane@example.org", paymentReference: "SKL4Q2ZB7X" });
    expect(await httpError(() => submitBadgeOrder(db, badge, null))).toEqual({ status: 409, message: PAYMENT_CODE_USED });
    const other = checkout({ paymentReference: "SKL4Q2ZB7X", customerEmail: "someone.else@example.org" });
    expect(await httpError(() => submitMerchOrder(db, other, [line("SL-CAP")]))).toMatchObject({ status: 409 });
    expect(await count(db, "badge_orders")).toBe(0);
    expect(await count(db, "merch_orders")).toBe(1);
  });

  it("a refused line stores nothing and leaves the code free", async () => {
    expect((await httpError(() => submitMerchOrder(db, checkout({ paymentReference: "SKL4Q2ZB7X" }), [line("SL-CAP"), line("SL-MUG")]))).status).toBe(409);
    expect(await count(db, "payment_codes")).toBe(0);
    await submitMerchOrder(db, checkout({ paymentReference: "SKL4Q2ZB7X" }), [line("SL-CAP")]);
    expect(await count(db, "merch_orders")).toBe(1);
  });

  it("200 orders at once with distinct codes are all stored with correct totals", async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        submitMerchOrder(db, checkout({ customerEmail: `c${i}@example.org`, paymentReference: `QC${String(i).padStart(8, "0")}` }), [
          line("SL-CAP", (i % 5) + 1),
          hoodie((i % 3) + 1, i % 2 ? "Night Blue" : "Lamp Amber", "L"),
        ]),
      ),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(200);
    const rows = await db.selectFrom("merch_orders").select(["id", "customer_email", "total"]).execute();
    expect(rows).toHaveLength(200);
    const byEmail = new Map(rows.map((r) => [r.customer_email, r]));
    for (let i = 0; i < 200; i++) {
      const expected = ((i % 5) + 1) * 900 + ((i % 3) + 1) * 3500;
      expect(byEmail.get(`c${i}@example.org`)).toEqual({ id: results[i]!.id, customer_email: `c${i}@example.org`, total: expected });
      expect(results[i]!.total).toBe(expected);
    }
    expect(await count(db, "payment_codes")).toBe(200);
    expect(await count(db, "outbox")).toBe(400);
  });

  it("20 orders at once sharing one code: exactly one stored, 19 refused with 409", async () => {
    const settled = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        submitMerchOrder(db, checkout({ customerEmail: `c${i}@example.org`, paymentReference: i % 2 ? "skl4q2zb7x" : "SKL4Q2ZB7X" }), [line("SL-CAP")]),
      ),
    );
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.reason).toMatchObject({ code: "conflict", message: PAYMENT_CODE_USED });
    expect(await count(db, "merch_orders")).toBe(1);
    expect(await count(db, "payment_codes")).toBe(1);
    expect(await count(db, "outbox")).toBe(2);
  });
});

describe("checkoutBag", () => {
  it("orders what is in the bag, priced now, then empties the bag", async () => {
    const { bagId } = await addToBag(db, null, { itemId: "SL-HOODIE", color: "Night Blue", size: "S", quantity: 2 });
    await addToBag(db, bagId, { itemId: "SL-CAP", quantity: 1 });
    const result = await checkoutBag(db, bagId, checkout());
    expect(result).toMatchObject({ id: expect.stringMatching(ID), total: 7900, currency: "KES" });
    expect((await getBag(db, bagId)).lines).toEqual([]);
    expect(JSON.parse((await orderRow(db, result.id)).items)).toHaveLength(2);
  });

  it("an empty bag is refused with 'Your bag is empty.'", async () => {
    expect(await httpError(() => checkoutBag(db, null, checkout()))).toEqual({ status: 400, message: "Your bag is empty." });
  });

  it("a failed checkout keeps the bag", async () => {
    const { bagId } = await addToBag(db, null, { itemId: "SL-CAP", quantity: 2 });
    await saveCatalogue(db, [HOODIE, { ...CAP, available: false }]);
    expect((await httpError(() => checkoutBag(db, bagId, checkout()))).status).toBe(409);
    expect((await getBag(db, bagId)).lines.map((l) => l.quantity)).toEqual([2]);
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

  it("searches id, customer, email, code and status, any case", async () => {
    const { a, b } = await seed();
    const ids = async (q: string) => (await listMerchOrders(db, q)).map((o) => o.id);
    expect(await ids("AMINA")).toEqual([a]);
    expect(await ids("brian@")).toEqual([b]);
    expect(await ids("amn1234567")).toEqual([a]);
    expect(await ids(a.toLowerCase())).toEqual([a]);
    expect(await ids("pending")).toEqual([b, a]);
    expect(await ids("nobody")).toEqual([]);
  });

  it("'_' and '%' in the search are literal characters", async () => {
    const { b } = await seed();
    expect((await listMerchOrders(db, "brian_k")).map((o) => o.id)).toEqual([b]);
    expect((await listMerchOrders(db, "_")).map((o) => o.id)).toEqual([b]);
    expect(await listMerchOrders(db, "%")).toEqual([]);
  });
});

describe("setMerchOrderStatus", () => {
  it("moves to any status from any state; reviewedAt is set; each note is added as a dated entry, the earlier ones kept", async () => {
    const { id } = await submitMerchOrder(db, checkout(), [line("SL-CAP")]);
    const steps: [Parameters<typeof setMerchOrderStatus>[2], string | undefined, string[], string][] = [
      ["rejected", "Code not found on the paybill.", ["Rejected: Code not found on the paybill."], "Code not found on the paybill."],
      ["pending", undefined, ["Rejected: Code not found on the paybill."], "Code not found on the paybill."],
      ["approved", "Found it after all.", ["Rejected: Code not found on the paybill.", "Approved: Found it after all."], "Found it after all."],
      ["rejected", undefined, ["Rejected: Code not found on the paybill.", "Approved: Found it after all."], "Found it after all."],
      ["approved", "", ["Rejected: Code not found on the paybill.", "Approved: Found it after all."], ""],
      ["pending", undefined, ["Rejected: Code not found on the paybill.", "Approved: Found it after all."], ""],
    ];
    for (const [status, notes, entries, toCustomer] of steps) {
      const order = await setMerchOrderStatus(db, id, status, notes);
      const log = entries.map((e) => e.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).map((e) => `\\[[^\\]]+ EAT\\] ${e}`).join("\n");
      expect(order).toMatchObject({ id, status, staffNotes: expect.stringMatching(new RegExp(`^${log}$`)), reviewedAt: expect.any(String) });
      expect(Date.now() - Date.parse(order.reviewedAt!)).toBeLessThan(10_000);
      expect(await orderRow(db, id)).toMatchObject({ status, staff_notes: order.staffNotes, supporter_note: toCustomer, reviewed_at: order.reviewedAt });
    }
  });

  it("approval emails the customer once; approving again does not send again", async () => {
    const { id } = await submitMerchOrder(db, checkout({ paymentReference: "SKL4Q2ZB7X" }), [hoodie(1)]);
    await drainOutbox();
    smtp.clear();
    await setMerchOrderStatus(db, id, "approved", "Delivery on Saturday.");
    await setMerchOrderStatus(db, id, "approved");
    await drainOutbox();
    expect((await outbox(db)).map((m) => m.kind)).toEqual(["merch.received", "merch.notice", "merch.approved"]);
    expect(smtp.messages).toHaveLength(1);
    const { envelope, mail } = smtp.messages[0]!;
    expect(envelope.to).toEqual(["achieng@example.org"]);
    expect(mail.subject).toBe(`Your merch order ${id} is confirmed`);
    expect(mail.text).toContain("1 × Street Light Hoodie, Night Blue, M — KES 3,500");
    expect(mail.text).toContain("A note from the team: Delivery on Saturday.");
  });

  it("marking pending sends nothing; rejecting tells the customer once, with the staff note", async () => {
    const { id } = await submitMerchOrder(db, checkout(), [line("SL-CAP")]);
    await setMerchOrderStatus(db, id, "pending");
    expect((await outbox(db)).map((m) => m.kind)).toEqual(["merch.received", "merch.notice"]);
    await setMerchOrderStatus(db, id, "rejected", "That code paid another shop.");
    await setMerchOrderStatus(db, id, "rejected");
    expect((await outbox(db)).map((m) => m.kind)).toEqual(["merch.received", "merch.notice", "merch.rejected"]);
    await drainOutbox();
    const mail = smtp.messages.find((m) => m.mail.subject === `Your merch order ${id} was not accepted`)!.mail;
    expect(mail.text).toContain("A note from the team: That code paid another shop.");
    expect(mail.replyTo?.text).toBe(site.merchEmail);
  });

  it("rejecting an approved order (the customer was told 'confirmed') tells them it is cancelled", async () => {
    const { id } = await submitMerchOrder(db, checkout(), [line("SL-CAP")]);
    await setMerchOrderStatus(db, id, "approved");
    await setMerchOrderStatus(db, id, "rejected");
    const rejected = (await db.selectFrom("outbox").selectAll().where("kind", "=", "merch.rejected").execute())[0]!;
    expect(rejected.to_address).toBe("achieng@example.org");
    expect(rejected.text_body).toContain("was confirmed earlier, but the merch team has now cancelled it");
  });

  it("two approvals at the same moment send one email", async () => {
    const { id } = await submitMerchOrder(db, checkout(), [line("SL-CAP")]);
    await Promise.all([setMerchOrderStatus(db, id, "approved"), setMerchOrderStatus(db, id, "approved")]);
    expect((await outbox(db)).filter((m) => m.kind === "merch.approved")).toHaveLength(1);
  });

  it("an unknown order is a 404", async () => {
    expect(await httpError(() => setMerchOrderStatus(db, "MO-000000", "approved"))).toEqual({ status: 404, message: "Order not found." });
  });
});
