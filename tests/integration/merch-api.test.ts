import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { FALLBACK_CATALOGUE, type MerchItem } from "~/features/merch/merch";
import { saveCatalogue } from "~/features/merch/merch.server";
import { PAYMENT_CODE_INVALID } from "~/features/payment-codes/payment-code";
import { PAYMENT_CODE_USED } from "~/features/payment-codes/payment-codes.server";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import * as badgeOrdersApi from "~/routes/api/badge-orders";
import * as generateShareApi from "~/routes/api/generate-merch-share";
import * as merchApi from "~/routes/api/merch";
import * as merchDataApi from "~/routes/api/merch-data";
import * as ordersApi from "~/routes/api/merch-orders";
import * as shareRoute from "~/routes/share/merch-share";
import { ORIGIN, args, get, jsonPost, readJson, type ApiError, testContext } from "../support/http";
import { freshApp } from "../support/reset";
import { expectSharePagePolicy } from "../support/share-pages";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";
import { rowCount } from "../support/domain";

/** Staff notes as a log: these entries, each dated, in this order (nothing replaced). */
const noteLog = (...entries: string[]) =>
  expect.stringMatching(new RegExp(`^${entries.map((e) => `\\[[^\\]]+ EAT\\] ${e.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`).join("\n")}$`));

const KEY = "test-admin-key-0123456789";
const ADMIN = { "X-Admin-Key": KEY };
const ID = /^MO-[0-9A-Z]{6}$/;
const ITEM_FIELDS = ["id", "name", "slug", "description", "price", "currency", "impact", "image", "tags", "available", "colors", "sizes"].sort();
const ORDER_FIELDS = [
  "id",
  "ts",
  "status",
  "reviewedAt",
  "staffNotes",
  "payment",
  "customerName",
  "customerEmail",
  "customerPhone",
  "notes",
  "paymentReference",
  "total",
  "currency",
  "items",
].sort();

const HOODIE: MerchItem = {
  id: "SL-HOODIE",
  name: "Street Light Hoodie",
  slug: "street-light-hoodie",
  description: "A heavyweight hoodie.",
  price: 3500,
  currency: "KES",
  impact: "Funds warm meals.",
  image: "/images/merch/hoodie.webp",
  tags: ["apparel"],
  available: true,
  colors: [
    { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie.webp" },
    { label: "Lamp Amber", swatch: "#e0892b" },
  ],
  sizes: ["S", "M", "L"],
};
const CAP: MerchItem = { ...HOODIE, id: "SL-CAP", name: "Lamp Cap", slug: "lamp-cap", price: 900, image: "", tags: [], colors: [], sizes: [] };
const MUG: MerchItem = { ...CAP, id: "SL-MUG", name: "Enamel Camp Mug", slug: "enamel-mug", price: 800, available: false };
const CATALOGUE = [HOODIE, CAP, MUG];

let ip = 0;
/** A different client address per call, so the per-address limit stays out of the way. */
const nextIp = () => `10.2.${Math.floor(++ip / 250)}.${ip % 250}`;
let codes = 0;
const nextCode = () => `QD${String(++codes).padStart(8, "0")}`;

/** A legacy bag line: colour as {label, swatch, image}, the client's price (ignored). */
const hoodieLine = (fields: Record<string, unknown> = {}) => ({
  itemId: "SL-HOODIE",
  name: "Street Light Hoodie",
  price: 3500,
  quantity: 2,
  color: { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie.webp" },
  size: "M",
  ...fields,
});
const capLine = (fields: Record<string, unknown> = {}) => ({ itemId: "SL-CAP", name: "Lamp Cap", price: 900, quantity: 1, color: "", size: "", ...fields });

const order = (fields: Record<string, unknown> = {}) => ({
  customerName: "Achieng Otieno",
  customerEmail: "achieng@example.org",
  customerPhone: "+254 712 345 678",
  notes: "Westlands, please.",
  paymentReference: nextCode(),
  total: 7900,
  currency: "KES",
  items: [hoodieLine(), capLine()],
  ...fields,
});

const request = (path: string, method: string, body?: unknown, headers: Record<string, string> = {}) =>
  new Request(ORIGIN + path, {
    method,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
  });

const placeOrder = (body: unknown, address = nextIp()) => ordersApi.action(args(jsonPost("/api/merch_orders.php", body), address));
const listOrders = (headers: Record<string, string> = ADMIN, query = "") => ordersApi.loader(args(get(`/api/merch_orders.php${query}`, headers)));
const patchOrder = (body: unknown, headers: Record<string, string> = ADMIN, address = "10.9.9.9") =>
  ordersApi.action(args(request("/api/merch_orders.php", "PATCH", body, headers), address));
const saveItems = (body: unknown, headers: Record<string, string> = ADMIN, address = "10.9.9.9") =>
  merchApi.action(args(jsonPost("/api/merch.php", body, headers), address));
const generateShares = (headers: Record<string, string> = ADMIN, address = "10.9.9.9") =>
  generateShareApi.action(args(jsonPost("/api/generate_merch_share.php", {}, headers), address));
const sharePage = (file: string) =>
  shareRoute.loader({
    request: new Request(`${ORIGIN}/share/merchandise/${file}`),
    params: { file },
    context: testContext(),
  } as unknown as Parameters<typeof shareRoute.loader>[0]);

async function create(fields: Record<string, unknown> = {}) {
  const { status, body } = await readJson<{ ok: boolean; id: string }>(await placeOrder(order(fields)));
  expect(status).toBe(200);
  expect(body).toEqual({ ok: true, id: expect.stringMatching(ID), orderUrl: expect.stringMatching(/^http:\/\/site\.test\/orders\/[BM]O-[0-9A-Z]{6}\?t=[\w-]+$/) });
  return body.id;
}

async function expectApiError(res: Response, status: number) {
  const { body } = await readJson<ApiError>(res);
  expect(res.status).toBe(status);
  expect(body.ok).toBe(false);
  expect(Object.keys(body).sort()).toEqual(["error", "ok"]);
  expect(body.error.length).toBeGreaterThan(0);
  return body.error;
}

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
  await saveCatalogue(db, CATALOGUE);
});

const rowOf = (id: string) => db.selectFrom("merch_orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const orderCount = () => rowCount(db, "merch_orders");
const activity = () => db.selectFrom("activity").select(["type", "meta", "actor_ip"]).orderBy("id").execute();
const catalogueIds = async () => (await db.selectFrom("merch_items").select("id").orderBy("sort").execute()).map((r) => r.id);

describe("GET /data/merch.json", () => {
  it("answers the public catalogue array, every item with the fields of spec section 3, no-cache", async () => {
    const res = await merchDataApi.loader(args(get("/data/merch.json")));
    const { status, headers, body } = await readJson<MerchItem[]>(res);
    expect(status).toBe(200);
    expect(headers.get("Cache-Control")).toBe("no-cache");
    expect(body).toEqual(CATALOGUE);
    for (const item of body) expect(Object.keys(item).sort()).toEqual(ITEM_FIELDS);
    expect(body[2]!.available).toBe(false);
  });

  it("an empty catalogue is an empty array", async () => {
    await saveCatalogue(db, []);
    expect((await readJson(await merchDataApi.loader(args(get("/data/merch.json"))))).body).toEqual([]);
  });

  it("when the catalogue cannot be read: the built-in items, still 200", async () => {
    await db.schema.dropTable("merch_items").execute();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { status, body } = await readJson(await merchDataApi.loader(args(get("/data/merch.json"))));
    vi.restoreAllMocks();
    expect(status).toBe(200);
    expect(body).toEqual(FALLBACK_CATALOGUE);
  });

  it("other methods are a 405 JSON answer", async () => {
    const res = await merchDataApi.action(args(jsonPost("/data/merch.json", {})));
    expect(await expectApiError(res, 405)).toMatch(/Use GET/);
  });
});

describe("GET /api/merch.php", () => {
  it("answers the same array for the editor, no-store, without a key", async () => {
    const { status, headers, body } = await readJson(await merchApi.loader(args(get("/api/merch.php"))));
    expect(status).toBe(200);
    expect(headers.get("Cache-Control")).toBe("no-store");
    expect(body).toEqual(CATALOGUE);
  });
});

describe("POST /api/merch.php (admin)", () => {
  const TEE = {
    id: "SL-TEE",
    name: "Vespers T-shirt",
    slug: "vespers-tee",
    description: "Soft cotton.",
    price: 1500,
    currency: "KES",
    impact: "A blanket.",
    image: "/images/merch/tee.webp",
    tags: ["apparel"],
    available: true,
    colors: [{ label: "White", swatch: "#f7f3ec" }],
    sizes: ["S", "M"],
  };

  it("replaces the catalogue: {ok:true, count}; the public list follows; activity 'merch.save'", async () => {
    const { status, body } = await readJson(await saveItems({ items: [TEE, CAP] }));
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, count: 2 });
    expect((await readJson(await merchDataApi.loader(args(get("/data/merch.json"))))).body).toEqual([TEE, CAP]);
    expect(await activity()).toEqual([{ type: "merch.save", meta: JSON.stringify({ count: 2 }), actor_ip: "10.9.9.9" }]);
  });

  it("fills the defaults of a minimal item (currency KES, available, empty lists)", async () => {
    await saveItems({ items: [{ id: "SL-PIN", name: " Pin ", slug: "pin", price: 150 }] });
    expect((await readJson(await merchApi.loader(args(get("/api/merch.php"))))).body).toEqual([
      { id: "SL-PIN", name: "Pin", slug: "pin", description: "", price: 150, currency: "KES", impact: "", image: "", tags: [], available: true, colors: [], sizes: [] },
    ]);
  });

  it.each([
    ["a price sent as text", [{ ...TEE, price: "1500" }], /^Item 1 \(SL-TEE\) price: /],
    ["a fractional price", [CAP, { ...TEE, price: 1500.5 }], /^Item 2 \(SL-TEE\) price: Prices are whole shillings\.$/],
    ["a negative price", [{ ...TEE, price: -1 }], /^Item 1 \(SL-TEE\) price: Prices cannot be negative\.$/],
    ["available sent as text", [{ ...TEE, available: "false" }], /^Item 1 \(SL-TEE\) available: /],
    ["a bad slug", [{ ...TEE, slug: "Vespers Tee" }], /^Item 1 \(SL-TEE\) slug: Slugs use lower-case letters/],
    ["a shared slug", [TEE, { ...CAP, slug: "vespers-tee" }], /^Item 2 \(SL-CAP\) slug: Two items share the slug "vespers-tee"\.$/],
    ["a shared id", [TEE, { ...CAP, id: "SL-TEE" }], /^Item 2 \(SL-TEE\) id: Two items share the id "SL-TEE"\.$/],
    ["a javascript: image", [{ ...TEE, image: "javascript:alert(1)" }], /^Item 1 \(SL-TEE\) image: Images must be a path/],
    ["a swatch that is not hex", [{ ...TEE, colors: [{ label: "Red", swatch: "red" }] }], /^Item 1 \(SL-TEE\) colors\.0\.swatch: Colour swatches must be hex/],
    ["a nameless item", [{ ...TEE, name: "  " }], /^Item 1 \(SL-TEE\) name: Every item needs a name\.$/],
    ["an item that is not an object", ["SL-TEE"], /^Item 1: /],
    ["items that are not a list", "SL-TEE", /^items must be a list of merch items\.$/],
    ["no items", undefined, /^items must be a list of merch items\.$/],
  ])("%s is a 400 naming the first problem; nothing saved", async (_, items, message) => {
    const res = await saveItems(items === undefined ? {} : { items });
    expect(await expectApiError(res, 400)).toMatch(message);
    expect(await catalogueIds()).toEqual(["SL-HOODIE", "SL-CAP", "SL-MUG"]);
    expect(await activity()).toEqual([]);
  });

  it("malformed JSON and a JSON array are 400s; a huge body is a 413", async () => {
    expect(await expectApiError(await saveItems("{items: ["), 400)).toBe("Request body must be valid JSON.");
    expect(await expectApiError(await saveItems([TEE]), 400)).toBe("Request body must be a JSON object.");
    const huge = { items: [{ ...TEE, description: "x".repeat(1024 * 1024) }] };
    expect(await expectApiError(await saveItems(huge), 413)).toBe("Request body is too large.");
    expect(await catalogueIds()).toEqual(["SL-HOODIE", "SL-CAP", "SL-MUG"]);
  });

  it("no key and a wrong key are 401s; a call from another site is a 403; nothing saved", async () => {
    expect(await expectApiError(await saveItems({ items: [TEE] }, {}), 401)).toBe("Admin key required.");
    expect(await expectApiError(await saveItems({ items: [TEE] }, { "X-Admin-Key": "wrong-key-wrong-key" }), 401)).toBe(
      "That admin key is not right.",
    );
    expect(await expectApiError(await saveItems({ items: [TEE] }, { ...ADMIN, Origin: "https://evil.example" }), 403)).toBe(
      "Admin calls are accepted from this site only.",
    );
    expect(await catalogueIds()).toEqual(["SL-HOODIE", "SL-CAP", "SL-MUG"]);
    // Only the wrong key is on record (staff see wrong keys in the log).
    expect((await activity()).map((a) => a.type)).toEqual(["admin.api_key_failed"]);
  });

  it("other methods are a 405 JSON answer", async () => {
    await expectApiError(await merchApi.action(args(request("/api/merch.php", "DELETE", undefined, ADMIN))), 405);
    await expectApiError(await merchApi.action(args(request("/api/merch.php", "PUT", { items: [] }, ADMIN))), 405);
  });
});

describe("POST /api/generate_merch_share.php (admin)", () => {
  it("answers {ok:true, count} with the number of items that have a share page; activity recorded", async () => {
    const { status, body } = await readJson(await generateShares());
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, count: 3 });
    await saveItems({ items: [CAP] });
    expect((await readJson(await generateShares())).body).toEqual({ ok: true, count: 1 });
    expect((await activity()).map((a) => [a.type, a.meta])).toEqual([
      ["merch.generate_share", JSON.stringify({ count: 3 })],
      ["merch.save", JSON.stringify({ count: 1 })],
      ["merch.generate_share", JSON.stringify({ count: 1 })],
    ]);
  });

  it("no key or a wrong key is a 401; GET is a 405", async () => {
    expect(await expectApiError(await generateShares({}), 401)).toBe("Admin key required.");
    expect(await expectApiError(await generateShares({ "X-Admin-Key": "nope-nope-nope" }), 401)).toBe("That admin key is not right.");
    await expectApiError(await generateShareApi.loader(args(get("/api/generate_merch_share.php", ADMIN))), 405);
    // Only the wrong key is on record (staff see wrong keys in the log).
    expect((await activity()).map((a) => a.type)).toEqual(["admin.api_key_failed"]);
  });
});

describe("POST /api/merch_orders.php (public)", () => {
  it("answers {ok:true, id}; the server prices the lines, ignoring the prices and total sent", async () => {
    const id = await create({
      paymentReference: "skl4q2zb7x",
      total: 1,
      currency: "kes",
      items: [hoodieLine({ price: 1, name: "Cheap" }), capLine({ price: 0, quantity: "3" })],
    });
    const row = await rowOf(id);
    expect(row).toMatchObject({
      customer_name: "Achieng Otieno",
      customer_email: "achieng@example.org",
      customer_phone: "+254 712 345 678",
      notes: "Westlands, please.",
      payment_reference: "SKL4Q2ZB7X",
      total: 2 * 3500 + 3 * 900,
      currency: "KES",
      status: "pending",
    });
    expect(JSON.parse(row.items)).toEqual([
      {
        itemId: "SL-HOODIE",
        name: "Street Light Hoodie",
        price: 3500,
        quantity: 2,
        color: { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie.webp" },
        size: "M",
      },
      { itemId: "SL-CAP", name: "Lamp Cap", price: 900, quantity: 3, color: null, size: null },
    ]);
  });

  it("a code without digits, typed lower-case with spaces, is a real M-Pesa code: accepted", async () => {
    const id = await create({ paymentReference: " qkab cdefgh " });
    expect((await rowOf(id)).payment_reference).toBe("QKABCDEFGH");
  });

  it("the colour may be a label string, an object with a label, or absent (null) for a one-colour item", async () => {
    const id = await create({
      items: [hoodieLine({ color: "Lamp Amber", size: "S" }), hoodieLine({ color: { label: " Night Blue " } }), capLine({ color: null, size: null })],
    });
    expect(JSON.parse((await rowOf(id)).items).map((l: { color: { label: string } | null }) => l.color?.label ?? null)).toEqual([
      "Lamp Amber",
      "Night Blue",
      null,
    ]);
  });

  it("queues the customer's and the merch team's emails, which arrive over SMTP", async () => {
    const id = await create({ customerEmail: "buyer@example.org" });
    await drainOutbox();
    const customer = smtp.messages.find((m) => m.envelope.to[0] === "buyer@example.org");
    expect(customer?.mail.subject).toBe(`We received your merch order ${id}`);
    expect(customer?.mail.text).toContain("Total: KES 7,900");
    expect(smtp.messages).toHaveLength(2);
  });

  it.each([
    ["an unknown item", { items: [capLine({ itemId: "SL-NOPE" })] }, 400, "That item is not in the store any more."],
    ["a restocking item", { items: [capLine({ itemId: "SL-MUG" })] }, 409, "Enamel Camp Mug: This item is restocking and cannot be ordered right now."],
    ["quantity 0", { items: [capLine({ quantity: 0 })] }, 400, "Quantity must be at least 1."],
    ["a negative quantity", { items: [capLine({ quantity: -2 })] }, 400, "Quantity must be at least 1."],
    ["a fractional quantity", { items: [capLine({ quantity: 1.5 })] }, 400, "Quantity must be at least 1."],
    ["a quantity that is not a number", { items: [capLine({ quantity: "lots" })] }, 400, "Quantity must be at least 1."],
    ["a quantity over 50", { items: [capLine({ quantity: 51 })] }, 400, "Quantity must be at most 50."],
    ["another currency", { currency: "USD" }, 400, "These items are priced in KES, not USD."],
    ["no colour for the hoodie", { items: [hoodieLine({ color: null })] }, 400, "Select a colour to continue."],
    ["a colour the hoodie does not come in", { items: [hoodieLine({ color: { label: "Pink", swatch: "#f0f" } })] }, 400, "Select a colour to continue."],
    ["no size for the hoodie", { items: [hoodieLine({ size: "" })] }, 400, "Select a size to continue."],
    ["an empty bag", { items: [] }, 400, "Your bag is empty."],
    ["no name", { customerName: "  " }, 400, "Please enter your full name."],
    ["a name that is a number", { customerName: 123 }, 400, "Please enter your full name."],
    ["a bad email", { customerEmail: "achieng@example" }, 400, "Please provide a valid email address."],
    ["no code", { paymentReference: "" }, 400, "Enter your M-Pesa confirmation code."],
    ["a missing code", { paymentReference: undefined }, 400, "Enter your M-Pesa confirmation code."],
    ["a malformed code", { paymentReference: "AB12" }, 400, PAYMENT_CODE_INVALID],
  ])("%s is refused with a clear message; nothing stored", async (_, fields, status, message) => {
    expect(await expectApiError(await placeOrder(order(fields)), status)).toBe(message);
    expect(await orderCount()).toBe(0);
  });

  it.each([
    ["items that are not a list", { items: "SL-CAP" }, /^items: /],
    ["a line that is not an object", { items: ["SL-CAP"] }, /^items\.0: /],
    ["a line without an item id", { items: [{ quantity: 1 }] }, /^items\.0\.itemId: /],
    ["a colour that is a number", { items: [capLine({ color: 7 })] }, /^items\.0\.color: /],
  ])("%s (a wrong type) is a 400 that names the field", async (_, fields, message) => {
    expect(await expectApiError(await placeOrder(order(fields)), 400)).toMatch(message);
    expect(await orderCount()).toBe(0);
  });

  it("a code already used, by a merch or a badge order, is a 409", async () => {
    await create({ paymentReference: "SKL4Q2ZB7X" });
    expect(await expectApiError(await placeOrder(order({ paymentReference: "skl4q2zb7x", customerEmail: "someone.else@example.org" })), 409)).toBe(PAYMENT_CODE_USED);
    const badge = { tierKey: "t1", name: "Jane", email: "jane@example.org", paymentReference: "BDG1234567" };
    expect((await badgeOrdersApi.action(args(jsonPost("/api/badge_orders.php", badge), nextIp()))).status).toBe(200);
    expect(await expectApiError(await placeOrder(order({ paymentReference: "BDG1234567" })), 409)).toBe(PAYMENT_CODE_USED);
    expect(await orderCount()).toBe(1);
  });

  it("a filled honeypot answers {ok:true, id:null} and stores nothing", async () => {
    const { status, body } = await readJson(await placeOrder(order({ website: "http://spam.example" })));
    expect([status, body]).toEqual([200, { ok: true, id: null }]);
    expect(await orderCount()).toBe(0);
  });

  it("malformed JSON is a 400; a JSON array a 400; a huge body a 413", async () => {
    expect(await expectApiError(await placeOrder("{not json"), 400)).toBe("Request body must be valid JSON.");
    expect(await expectApiError(await placeOrder([order()]), 400)).toBe("Request body must be a JSON object.");
    expect(await expectApiError(await placeOrder(order({ notes: "x".repeat(100 * 1024) })), 413)).toBe("Request body is too large.");
    expect(await orderCount()).toBe(0);
  });

  it("the eleventh order from one address in ten minutes is a 429 with Retry-After", async () => {
    for (let i = 0; i < 10; i++) expect((await placeOrder(order(), "10.0.0.77")).status).toBe(200);
    const res = await placeOrder(order(), "10.0.0.77");
    expect(await expectApiError(res, 429)).toMatch(/^Too many attempts/);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await placeOrder(order(), "10.0.0.78")).status).toBe(200);
    expect(await orderCount()).toBe(11);
  });

  it("other methods are a 405 JSON answer", async () => {
    const res = await ordersApi.action(args(request("/api/merch_orders.php", "DELETE")));
    expect(await expectApiError(res, 405)).toMatch(/Use POST, GET, PATCH/);
  });
});

describe("GET /api/merch_orders.php (admin)", () => {
  it("answers {ok:true, orders} newest first, each with the admin fields of spec section 3", async () => {
    const a = await create({ customerName: "Amina", paymentReference: "AMN1234567" });
    const b = await create({ customerName: "Brian" });
    for (const [i, id] of [a, b].entries()) {
      await db.updateTable("merch_orders").set({ ts: new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString() }).where("id", "=", id).execute();
    }
    const { status, body } = await readJson<{ ok: boolean; orders: Record<string, unknown>[] }>(await listOrders());
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["ok", "orders"]);
    expect(body.orders.map((o) => o.id)).toEqual([b, a]);
    for (const o of body.orders) expect(Object.keys(o).sort()).toEqual(ORDER_FIELDS);
    expect(body.orders[1]).toEqual({
      id: a,
      ts: "2026-01-01T10:00:00.000Z",
      status: "pending",
      reviewedAt: null,
      staffNotes: "",
      customerName: "Amina",
      customerEmail: "achieng@example.org",
      customerPhone: "+254 712 345 678",
      notes: "Westlands, please.",
      paymentReference: "AMN1234567",
      payment: { state: "unmatched", receivedAmount: null, receivedAt: null, payerName: null, receipts: [] },
      total: 7900,
      currency: "KES",
      items: [
        { itemId: "SL-HOODIE", name: "Street Light Hoodie", price: 3500, quantity: 2, color: HOODIE.colors[0], size: "M" },
        { itemId: "SL-CAP", name: "Lamp Cap", price: 900, quantity: 1, color: null, size: null },
      ],
    });
    const found = await readJson<{ orders: { id: string }[] }>(await listOrders(ADMIN, "?q=amn1234567"));
    expect(found.body.orders.map((o) => o.id)).toEqual([a]);
  });

  it("an empty list is {ok:true, orders:[]}", async () => {
    expect((await readJson(await listOrders())).body).toEqual({ ok: true, orders: [] });
  });

  it("no key and a wrong key are 401s", async () => {
    await create();
    expect(await expectApiError(await listOrders({}), 401)).toBe("Admin key required.");
    expect(await expectApiError(await listOrders({ "X-Admin-Key": "wrong-key-wrong-key" }), 401)).toBe("That admin key is not right.");
  });
});

describe("PATCH /api/merch_orders.php (admin)", () => {
  type Order = Record<string, unknown> & { id: string; status: string; staffNotes: string; reviewedAt: string | null };
  const patch = async (body: unknown) => {
    const res = await patchOrder(body);
    const { status, body: json } = await readJson<{ ok: boolean; order: Order }>(res);
    expect(status).toBe(200);
    expect(Object.keys(json).sort()).toEqual(["ok", "order"]);
    expect(Object.keys(json.order).sort()).toEqual(ORDER_FIELDS);
    return json.order;
  };

  it("sets any status from any state with {ok:true, order}; notes optional (null or absent keeps the current note)", async () => {
    const id = await create();
    expect(await patch({ id, status: "rejected", notes: "No such code on the paybill." })).toMatchObject({
      id,
      status: "rejected",
      staffNotes: noteLog("Rejected: No such code on the paybill."),
      reviewedAt: expect.any(String),
    });
    expect(await patch({ id, status: "pending" })).toMatchObject({ status: "pending", staffNotes: noteLog("Rejected: No such code on the paybill.") });
    expect(await patch({ id, status: "approved", notes: null })).toMatchObject({ status: "approved", staffNotes: noteLog("Rejected: No such code on the paybill.") });
    // A new note is added below the earlier ones, never in their place.
    expect(await patch({ id, status: "approved", notes: "  Found it.  " })).toMatchObject({ status: "approved", staffNotes: noteLog("Rejected: No such code on the paybill.", "Approved: Found it.") });
    expect(await rowOf(id)).toMatchObject({ status: "approved", staff_notes: noteLog("Rejected: No such code on the paybill.", "Approved: Found it."), supporter_note: "Found it." });
    expect((await activity()).map((a) => [a.type, a.meta, a.actor_ip])).toEqual(
      ["rejected", "pending", "approved", "approved"].map((status) => ["merch.order_status", JSON.stringify({ id, status }), "10.9.9.9"]),
    );
  });

  it("approval emails the customer once", async () => {
    const id = await create({ customerEmail: "buyer@example.org" });
    await drainOutbox();
    smtp.clear();
    await patch({ id, status: "approved", notes: "Delivery Saturday." });
    await patch({ id, status: "approved" });
    await drainOutbox();
    expect(smtp.messages.map((m) => [m.envelope.to[0], m.mail.subject])).toEqual([["buyer@example.org", `Your merch order ${id} is confirmed`]]);
  });

  it.each([
    ["a bad status", (id: string) => ({ id, status: "shipped" }), 400, "status must be pending, approved or rejected."],
    ["no status", (id: string) => ({ id }), 400, "status must be pending, approved or rejected."],
    ["a malformed id", () => ({ id: "../../etc", status: "approved" }), 400, "Unknown order id."],
    ["an unknown id", () => ({ id: "MO-000000", status: "approved" }), 404, "Order not found."],
    ["notes that are a number", (id: string) => ({ id, status: "approved", notes: 5 }), 400, undefined],
  ])("%s is refused; nothing changes", async (_, make, status, message) => {
    const id = await create();
    const error = await expectApiError(await patchOrder(make(id)), status);
    if (message) expect(error).toBe(message);
    expect(await rowOf(id)).toMatchObject({ status: "pending", reviewed_at: null });
    expect(await activity()).toEqual([]);
  });

  it("malformed JSON is a 400; no key and a wrong key are 401s and nothing changes", async () => {
    const id = await create();
    expect(await expectApiError(await patchOrder("{id:"), 400)).toBe("Request body must be valid JSON.");
    expect(await expectApiError(await patchOrder({ id, status: "approved" }, {}), 401)).toBe("Admin key required.");
    expect(await expectApiError(await patchOrder({ id, status: "approved" }, { "X-Admin-Key": "wrong-key-wrong-key" }), 401)).toBe(
      "That admin key is not right.",
    );
    expect((await rowOf(id)).status).toBe("pending");
    // Only the wrong key is on record (staff see wrong keys in the log).
    expect((await activity()).map((a) => a.type)).toEqual(["admin.api_key_failed"]);
  });
});

describe("/share/merchandise/{slug}.html", () => {
  const meta = (html: string, attr: "property" | "name", key: string) =>
    new RegExp(`<meta ${attr}="${key.replace(/[.:]/g, "\\$&")}" content="([^"]*)">`).exec(html)?.[1];

  it("a small page with the item's title, description and link-preview tags, then on to the store", async () => {
    const res = await sharePage("street-light-hoodie.html");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expectSharePagePolicy(res);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<title>Street Light Hoodie | Street Light Outreach merchandise</title>");
    expect(html).toContain('<meta name="description" content="A heavyweight hoodie. Funds warm meals.">');
    expect(meta(html, "property", "og:title")).toBe("Street Light Hoodie");
    expect(meta(html, "property", "og:description")).toBe("A heavyweight hoodie. Funds warm meals.");
    expect(meta(html, "property", "og:image")).toBe("http://site.test/images/merch/hoodie.webp");
    expect(meta(html, "property", "og:url")).toBe("http://site.test/share/merchandise/street-light-hoodie.html");
    expect(meta(html, "name", "twitter:card")).toBe("summary_large_image");
    expect(html).toContain('<meta http-equiv="refresh" content="0; url=/merchandise?item=street-light-hoodie">');
    expect(html).toContain('<a href="/merchandise?item=street-light-hoodie">');
  });

  it("an item without an image shares the default card; an https image is used as it is", async () => {
    expect(meta(await (await sharePage("lamp-cap.html")).text(), "property", "og:image")).toBe("http://site.test/brand/og-default.png");
    await saveCatalogue(db, [{ ...CAP, image: "https://cdn.example.org/cap.webp" }]);
    expect(meta(await (await sharePage("lamp-cap.html")).text(), "property", "og:image")).toBe("https://cdn.example.org/cap.webp");
  });

  it("a restocking item still has its page", async () => {
    const res = await sharePage("enamel-mug.html");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Restocking");
  });

  it("escapes what staff typed: a name with <script> shows escaped", async () => {
    const res = await saveItems({
      items: [{ ...CAP, name: `<script>alert("x")</script> Cap`, description: `Tom & Jerry's "best" cap`, impact: "" }],
    });
    expect(res.status).toBe(200);
    const html = await (await sharePage("lamp-cap.html")).text();
    expect(html).not.toContain("<script>");
    expect(html).toContain("<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Cap</h1>");
    expect(meta(html, "property", "og:title")).toBe("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Cap");
    expect(meta(html, "property", "og:description")).toBe("Tom &amp; Jerry&#39;s &quot;best&quot; cap");
  });

  it.each([
    ["an unknown slug", "no-such-item.html"],
    ["upper case", "Lamp-Cap.html"],
    ["no .html", "lamp-cap"],
    ["another extension", "lamp-cap.htm"],
    ["a path", "..%2Flamp-cap.html"],
    ["a dot-dot", "../lamp-cap.html"],
    ["a slug over 60 characters", `${"a".repeat(61)}.html`],
    ["nothing before .html", ".html"],
  ])("%s is a 404 page", async (_, file) => {
    const res = await sharePage(file);
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expectSharePagePolicy(res);
    expect(await res.text()).toContain("Item not found");
  });
});
