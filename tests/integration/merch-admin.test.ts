import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import * as editorRoute from "~/routes/merch/admin";
import * as ordersRoute from "~/routes/admin/merch-orders";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import { ORIGIN, args, get, reply, thrown } from "../support/http";
import { freshApp } from "../support/reset";
import type { MerchItem } from "~/features/merch/merch";
import { CheckoutSchema } from "~/features/merch/merch.schema";
import { listItems, saveCatalogue, submitMerchOrder } from "~/features/merch/merch.server";
import { listMerchOrders } from "~/features/reconciliation/orders.server";
import { readEditorRows } from "~/routes/merch/merch-editor-page.server";
import { BLANK_ROW, EDITOR_PATH, fieldName, ORDERS_PATH, ROW_TEXT_FIELDS, type EditorRow } from "~/features/merch/admin/merch-admin-screen";
import { parseEditorItem } from "~/features/merch/merch-editor";
import { changeMerchOrderStatus } from "~/features/merch/admin/merch-admin.server";
import { staff } from "~/lib/core/actor";

/** Staff notes as a log: these entries, each dated, in this order (nothing replaced). */
const noteLog = (...entries: string[]) =>
  expect.stringMatching(new RegExp(`^${entries.map((e) => `\\[[^\\]]+ EAT\\] ${e.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`).join("\n")}$`));

const STAFF = "10.0.0.42";

const HOODIE: MerchItem = {
  id: "SL-HOODIE",
  name: "Street Light Hoodie",
  slug: "street-light-hoodie",
  description: "Warm.",
  price: 3500,
  currency: "KES",
  impact: "Meals for an evening.",
  image: "/images/merch/hoodie.webp",
  tags: ["apparel", "bestseller"],
  available: true,
  colors: [
    { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie.webp" },
    { label: "Lamp Amber", swatch: "#e0892b" },
  ],
  sizes: ["S", "M", "L"],
};
const TOTE: MerchItem = { ...HOODIE, id: "SL-TOTE", name: "Street Light Tote", slug: "street-light-tote", price: 1200, tags: [], colors: [], sizes: ["One size"] };
const MUG: MerchItem = { ...TOTE, id: "SL-MUG", name: "Enamel Camp Mug", slug: "enamel-mug", price: 800, available: false, sizes: [] };

let db: Db;
let cookie: string;

beforeEach(async () => {
  db = await freshApp({ SMTP_URL: undefined, ORG_INBOX: undefined });
  await saveCatalogue(db, [HOODIE, TOTE, MUG]);
  const set = await createAdminSessionCookie(db, new Request(`${ORIGIN}/admin`));
  cookie = set.split(";")[0]!;
});

/** The editor's form as a browser sends it: a hidden 'false' before each ticked 'available'. */
function editorBody(rows: Array<Partial<EditorRow>>, intent = "save") {
  const body = new URLSearchParams();
  rows.forEach((r, i) => {
    const row = { ...BLANK_ROW, ...r };
    for (const f of ROW_TEXT_FIELDS) body.append(fieldName(i, f), row[f]);
    body.append(fieldName(i, "available"), "false");
    if (row.available) body.append(fieldName(i, "available"), "true");
    if (row.remove) body.append(fieldName(i, "remove"), "on");
  });
  body.append("intent", intent);
  return body;
}

const post = (path: string, body: URLSearchParams, withCookie = true) =>
  new Request(ORIGIN + path, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", Origin: ORIGIN, ...(withCookie ? { Cookie: cookie } : {}) },
  });

const saveRows = async (rows: Array<Partial<EditorRow>>, intent = "save") =>
  reply(await editorRoute.action(args(post(EDITOR_PATH, editorBody(rows, intent)), STAFF)));

async function loadedRows() {
  const data = await editorRoute.loader(args(get(EDITOR_PATH, { Cookie: cookie })));
  if (!data) throw new Error("expected the editor");
  return data.rows;
}

const activity = (type: string) =>
  db.selectFrom("activity").select(["type", "message", "meta", "actor_ip"]).where("type", "=", type).orderBy("id").execute();

describe("the editor's parsing rules (spec section 5, 'Merch admin save'), from the posted form", () => {
  const one = (fields: Partial<EditorRow>, extra?: (b: URLSearchParams) => void) => {
    const body = editorBody([{ ...BLANK_ROW, id: "SL-X", name: "X", ...fields }]);
    extra?.(body);
    const form = new FormData();
    for (const [k, v] of body) form.append(k, v);
    const [row] = readEditorRows(form);
    return parseEditorItem(row!.fields);
  };

  it.each([
    ["12.5", 13],
    ["12.4", 12],
    ["3500", 3500],
    [" 1200.00 ", 1200],
    ["abc", 0],
    ["", 0],
    ["Infinity", 0],
  ])("price %j saves as %j (decimal parse, rounded to whole shillings, non-finite 0)", (price, expected) => {
    expect(one({ price }).price).toBe(expected);
  });

  it("name and slug are trimmed and a blank slug falls back to the id; a blank currency is KES", () => {
    expect(one({ id: " SL-CAP ", name: "  Lamp Cap ", slug: "   ", currency: "" })).toMatchObject({
      id: "SL-CAP",
      name: "Lamp Cap",
      slug: "sl-cap",
      currency: "KES",
    });
    expect(one({ slug: "  lamp-cap  ", currency: " usd " })).toMatchObject({ slug: "lamp-cap", currency: "USD" });
  });

  it("available is true unless explicitly false: the hidden 'false' alone (unticked) is false, a ticked box wins", () => {
    expect(one({ available: true }).available).toBe(true);
    expect(one({ available: false }).available).toBe(false);
    // A client that sends no field at all (no hidden input) leaves the item available.
    const form = new FormData();
    form.append(fieldName(0, "id"), "SL-X");
    expect(parseEditorItem(readEditorRows(form)[0]!.fields).available).toBe(true);
  });

  it("tags and sizes are comma lists with blanks dropped", () => {
    expect(one({ tags: " apparel, ,gift ,, ", sizes: "S, M ,, L , " })).toMatchObject({
      tags: ["apparel", "gift"],
      sizes: ["S", "M", "L"],
    });
    expect(one({ tags: " , ", sizes: "" })).toMatchObject({ tags: [], sizes: [] });
  });

  it("colours are lines split by newline or ';'; the label falls back to the hex, then 'Colour'; the swatch to #000000", () => {
    const colors = one({
      colors: "Night Blue|#123b5d|/images/merch/hoodie.webp\r\n|#e0892b; Charcoal\n\n||;  White | #f7f3ec ",
    }).colors;
    expect(colors).toEqual([
      { label: "Night Blue", swatch: "#123b5d", image: "/images/merch/hoodie.webp" },
      { label: "#e0892b", swatch: "#e0892b" },
      { label: "Charcoal", swatch: "#000000" },
      { label: "Colour", swatch: "#000000" },
      { label: "White", swatch: "#f7f3ec" },
    ]);
  });

  it("the rows the editor shows post back as the very same catalogue", async () => {
    const rows = await loadedRows();
    expect(rows.map((r) => r.colors)).toEqual(["Night Blue|#123b5d|/images/merch/hoodie.webp\nLamp Amber|#e0892b", "", ""]);
    const r = await saveRows([...rows, BLANK_ROW]);
    expect(r.status).toBe(200);
    expect(await listItems(db)).toEqual([HOODIE, TOTE, MUG]);
  });
});

describe("saving at /merchandise/admin", () => {
  it("signed out: the screen loads nothing (the staff layout shows the sign-in form); a post is sent to sign in", async () => {
    expect(await editorRoute.loader(args(get(EDITOR_PATH)))).toBeNull();
    const res = await thrown(editorRoute.action(args(post(EDITOR_PATH, editorBody([{ id: "SL-X" }]), false))));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/admin?returnTo=${encodeURIComponent(EDITOR_PATH)}`);
    expect(await listItems(db)).toEqual([HOODIE, TOTE, MUG]);
  });

  it("a good save: a price changed, an item added, one removed, the blank row dropped", async () => {
    const [hoodie, tote, mug] = await loadedRows();
    const r = await saveRows([
      { ...hoodie!, price: "3800" },
      { ...tote!, remove: true },
      { ...mug!, available: true },
      { id: "lamp-cap", name: "Lamp Cap", price: "900", tags: "accessories", sizes: "", colors: "Black|#111111" },
      BLANK_ROW,
    ]);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ intent: "save", status: "success", message: "Merchandise saved successfully." });
    const items = await listItems(db);
    expect(items.map((i) => [i.id, i.slug, i.price, i.available])).toEqual([
      ["SL-HOODIE", "street-light-hoodie", 3800, true],
      ["SL-MUG", "enamel-mug", 800, true],
      ["lamp-cap", "lamp-cap", 900, true],
    ]);
    expect(items[2]).toMatchObject({ currency: "KES", tags: ["accessories"], sizes: [], colors: [{ label: "Black", swatch: "#111111" }] });
    expect(await activity("merch.save")).toEqual([
      { type: "merch.save", message: "Merchandise saved (3 items)", meta: JSON.stringify({ count: 3 }), actor_ip: STAFF },
    ]);
  });

  it("two items with one slug: 'Save failed' with the reason, nothing saved, what was typed kept", async () => {
    const [hoodie, tote, mug] = await loadedRows();
    const typed = [hoodie!, { ...tote!, slug: "street-light-hoodie", price: "1300" }, { ...mug!, remove: true }, BLANK_ROW];
    const r = await saveRows(typed);
    expect(r.status).toBe(400);
    expect(r.data.message).toBe('Save failed: Two items share the slug "street-light-hoodie".');
    expect(r.data.status).toBe("error");
    expect(r.data.result?.rows).toEqual(typed);
    expect(r.data.result?.issues).toEqual([{ row: 1, field: "slug", message: 'Two items share the slug "street-light-hoodie".' }]);
    expect(await listItems(db)).toEqual([HOODIE, TOTE, MUG]);
    expect(await activity("merch.save")).toEqual([]);
  });

  it("a duplicate id, a removed row in between: the issue points at the row as shown", async () => {
    const [hoodie, tote] = await loadedRows();
    const r = await saveRows([hoodie!, { ...tote!, remove: true }, { id: "SL-HOODIE", name: "Another hoodie", slug: "another" }]);
    expect(r.status).toBe(400);
    expect(r.data.message).toBe('Save failed: Two items share the id "SL-HOODIE".');
    expect(r.data.result?.issues).toEqual([{ row: 2, field: "id", message: 'Two items share the id "SL-HOODIE".' }]);
  });

  it("a bad field names the item: an empty name, a negative price, a non-hex swatch, a lower-case currency code", async () => {
    const [hoodie, tote] = await loadedRows();
    let r = await saveRows([hoodie!, { ...tote!, name: "  " }]);
    expect(r.status).toBe(400);
    expect(r.data.message).toBe("Save failed: SL-TOTE (item 2): Every item needs a name.");
    expect(r.data.result?.issues).toContainEqual({ row: 1, field: "name", message: "Every item needs a name." });

    // A typed slug must be a slug (a blank one falls back to the lower-cased id).
    r = await saveRows([hoodie!, { id: "SL-CAP", name: "Lamp Cap", slug: "Lamp Cap" }]);
    expect(r.data.message).toBe(
      "Save failed: SL-CAP (item 2): Slugs use lower-case letters, digits and single dashes (e.g. street-light-hoodie).",
    );

    r = await saveRows([{ ...hoodie!, price: "-5" }]);
    expect(r.data.message).toBe("Save failed: SL-HOODIE (item 1): Prices cannot be negative.");

    r = await saveRows([{ ...hoodie!, colors: "Blue|blue" }]);
    expect(r.data.message).toBe("Save failed: SL-HOODIE (item 1): Colour swatches must be hex colours such as #123b5d.");
    expect(r.data.result?.issues?.[0]).toMatchObject({ row: 0, field: "colors" });

    r = await saveRows([{ ...hoodie!, currency: "KSHS" }]);
    expect(r.data.message).toBe("Save failed: SL-HOODIE (item 1): Currency is a three-letter code such as KES.");

    r = await saveRows([{ ...hoodie!, tags: "a, b, c, d, e, f, g, h, i, j, k, l, m" }]);
    expect(r.data.message).toBe("Save failed: SL-HOODIE (item 1): At most 12 tags.");
    expect(await listItems(db)).toEqual([HOODIE, TOTE, MUG]);
  });

  it("unticking 'available' without JavaScript (only the hidden 'false' arrives) saves the item as restocking", async () => {
    const [hoodie, tote, mug] = await loadedRows();
    expect((await saveRows([{ ...hoodie!, available: false }, tote!, mug!])).status).toBe(200);
    expect((await listItems(db)).map((i) => i.available)).toEqual([false, true, false]);
  });
});

describe("Generate Share Files", () => {
  it("counts every item (available or not), records merch.generate_share, and keeps unsaved typing on screen", async () => {
    const [hoodie, tote, mug] = await loadedRows();
    const typed = [{ ...hoodie!, price: "9999" }, tote!, mug!];
    const r = await saveRows([...typed, BLANK_ROW], "share");
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ intent: "share", status: "success", message: "Share pages generated (3)" });
    expect(r.data.result?.rows).toEqual([...typed, BLANK_ROW]);
    expect((await listItems(db))[0]!.price).toBe(3500);
    expect(await activity("merch.generate_share")).toMatchObject([{ meta: JSON.stringify({ count: 3 }), actor_ip: STAFF }]);
  });

  it("a failure says 'Share generation failed'", async () => {
    await sql`DROP TABLE merch_items`.execute(db);
    const r = await saveRows([], "share");
    expect(r.status).toBe(500);
    expect(r.data.message).toBe("Share generation failed");
  });
});

// ---------------------------------------------------------------- /admin/merch-orders

let codes = 0;
const nextCode = () => `QZ${String(++codes).padStart(8, "0")}`;

async function placeOrder(name = "Achieng Otieno", email = "achieng@example.org") {
  const input = CheckoutSchema.parse({ customerName: name, customerEmail: email, customerPhone: "", notes: "Westlands", paymentReference: nextCode() });
  const { id } = await submitMerchOrder(db, input, [
    { itemId: "SL-HOODIE", quantity: 2, color: "Night Blue", size: "M" },
    { itemId: "SL-TOTE", quantity: 1, color: null, size: "One size" },
  ]);
  return id;
}

const statusBody = (fields: Record<string, string>) => new URLSearchParams({ intent: "status", ...fields });
const setStatus = async (fields: Record<string, string>, path = ORDERS_PATH) =>
  reply(await ordersRoute.action(args(post(path, statusBody(fields)), STAFF)));
const outbox = () => db.selectFrom("outbox").select(["kind", "to_address"]).orderBy("id").execute();

async function ordersPage(q = "") {
  const data = await ordersRoute.loader(args(get(`${ORDERS_PATH}${q ? `?q=${encodeURIComponent(q)}` : ""}`, { Cookie: cookie })));
  if (!data) throw new Error("expected the orders screen");
  return data;
}

describe("the merch orders screen", () => {
  it("signed out: the screen loads nothing (the staff layout shows the sign-in form); a post is sent to sign in", async () => {
    const data = await ordersRoute.loader(args(get(`${ORDERS_PATH}?q=MO-`)));
    expect(data).toBeNull();
    const res = await thrown(ordersRoute.action(args(post(ORDERS_PATH, statusBody({ id: "MO-ABCDEF", status: "approved" }), false))));
    expect(res.headers.get("Location")).toBe(`/admin?returnTo=${encodeURIComponent(ORDERS_PATH)}`);
  });

  it("lists newest first with the lines, and filters by id, name, email, code or status", async () => {
    const first = await placeOrder("Achieng Otieno", "achieng@example.org");
    await new Promise((r) => setTimeout(r, 5));
    const second = await placeOrder("Brian Kamau", "brian@example.org");
    const page = await ordersPage();
    expect(page.orders.map((o) => o.id)).toEqual([second, first]);
    expect(page.orders[0]).toMatchObject({
      status: "pending",
      reviewedAt: null,
      staffNotes: "",
      total: 8200,
      items: [
        { itemId: "SL-HOODIE", name: "Street Light Hoodie", price: 3500, quantity: 2, color: { label: "Night Blue" }, size: "M" },
        { itemId: "SL-TOTE", quantity: 1, color: null, size: "One size" },
      ],
    });
    expect(page.actionPath).toBe(ORDERS_PATH);
    expect((await ordersPage("brian")).orders.map((o) => o.id)).toEqual([second]);
    const byQ = await ordersPage(" ACHIENG@example ");
    expect(byQ.orders.map((o) => o.id)).toEqual([first]);
    expect(byQ.actionPath).toBe(`${ORDERS_PATH}?q=ACHIENG%40example`);
    expect((await ordersPage(first.toLowerCase())).orders.map((o) => o.id)).toEqual([first]);
    expect((await ordersPage("pending")).orders).toHaveLength(2);
  });

  it("approve with a note: the order comes back approved with the note and reviewedAt, the customer's email is queued", async () => {
    const id = await placeOrder();
    const before = (await outbox()).length;
    const r = await setStatus({ id, status: "approved", notes: "  Paid in full; deliver Saturday.  " });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ status: "success", message: `Order ${id} approved.`, result: { id } });
    expect(r.data.result?.order).toMatchObject({ id, status: "approved", staffNotes: noteLog("Approved: Paid in full; deliver Saturday.") });
    expect(Date.parse(r.data.result?.order!.reviewedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await outbox()).slice(before)).toEqual([{ kind: "merch.approved", to_address: "achieng@example.org" }]);
    expect(await activity("merch.order_status")).toEqual([
      { type: "merch.order_status", message: `Merch order ${id} set to approved`, meta: JSON.stringify({ id, status: "approved" }), actor_ip: STAFF },
    ]);
    expect((await listMerchOrders(db, id))[0]).toEqual(r.data.result?.order);
  });

  it("a rejection takes a second press: the first asks (naming the customer), keeps the typed note, changes nothing", async () => {
    const id = await placeOrder();
    const before = (await outbox()).length;
    const r = await setStatus({ id, status: "rejected", notes: "Code not found." });
    expect(r.status).toBe(200);
    expect(r.data.result).toMatchObject({ id, confirm: "rejected", order: { status: "pending" } });
    expect(r.data.message).toMatch(new RegExp(`^Reject order ${id}\\? .+ will be emailed that it was not accepted\\.$`));
    expect(r.data.values).toEqual({ notes: "Code not found." });
    expect((await listMerchOrders(db, id))[0]!.status).toBe("pending");
    expect((await outbox()).length).toBe(before);
    expect(await activity("merch.order_status")).toEqual([]);
  });

  it("any status from any state: reject, back to pending (an empty note adds nothing), approve; approval and rejection email", async () => {
    const id = await placeOrder();
    const before = (await outbox()).length;
    let r = await setStatus({ id, status: "rejected", notes: "Code not found on the statement.", confirmed: "yes" });
    expect(r.data.result?.order).toMatchObject({ status: "rejected", staffNotes: noteLog("Rejected: Code not found on the statement.") });
    const rejectedAt = r.data.result?.order!.reviewedAt!;
    await new Promise((res) => setTimeout(res, 5));
    r = await setStatus({ id, status: "pending", notes: "", confirmed: "yes" });
    expect(r.data).toMatchObject({ message: `Order ${id} marked pending review.` });
    // An empty note adds nothing: the earlier one stays.
    expect(r.data.result?.order).toMatchObject({ status: "pending", staffNotes: noteLog("Rejected: Code not found on the statement.") });
    expect(r.data.result?.order!.reviewedAt! > rejectedAt).toBe(true);
    r = await setStatus({ id, status: "approved" });
    expect(r.data.result?.order).toMatchObject({ status: "approved", staffNotes: noteLog("Rejected: Code not found on the statement.") });
    r = await setStatus({ id, status: "approved", notes: "Collected." });
    expect(r.data.result?.order).toMatchObject({ status: "approved", staffNotes: noteLog("Rejected: Code not found on the statement.", "Approved: Collected.") });
    expect((await outbox()).slice(before).map((m) => m.kind)).toEqual(["merch.rejected", "merch.approved"]);
    expect((await activity("merch.order_status")).map((a) => JSON.parse(a.meta).status)).toEqual(["rejected", "pending", "approved", "approved"]);
  });

  it("'Mark pending' on an approved or rejected order takes a second press that says what it undoes; on a pending order it just saves", async () => {
    const id = await placeOrder();
    let r = await setStatus({ id, status: "pending", notes: "Still checking." });
    expect(r.data).toMatchObject({ message: `Order ${id} marked pending review.`, result: { order: { status: "pending", staffNotes: noteLog("Marked pending: Still checking.") } } });
    await setStatus({ id, status: "approved" });
    const before = (await outbox()).length;
    r = await setStatus({ id, status: "pending", notes: "Wrong order." });
    expect(r.status).toBe(200);
    expect(r.data.result).toMatchObject({ id, confirm: "pending", order: { status: "approved" } });
    expect(r.data.message).toBe(
      `Mark order ${id} pending again? It was approved and Achieng Otieno was emailed that it is confirmed. They are not emailed about this, and approving it again sends no second confirmation.`,
    );
    expect(r.data.values).toEqual({ notes: "Wrong order." });
    expect((await listMerchOrders(db, id))[0]!.status).toBe("approved");
    r = await setStatus({ id, status: "pending", notes: "Wrong order.", confirmed: "yes" });
    expect(r.data.result?.order).toMatchObject({ status: "pending", staffNotes: noteLog("Marked pending: Still checking.", "Marked pending: Wrong order.") });
    await setStatus({ id, status: "rejected", confirmed: "yes" });
    r = await setStatus({ id, status: "pending" });
    expect(r.data.result).toMatchObject({ confirm: "pending", order: { status: "rejected" } });
    expect(r.data.message).toBe(`Mark order ${id} pending again? It was rejected and Achieng Otieno was emailed that. They are not emailed about this.`);
    expect((await outbox()).slice(before).map((m) => m.kind)).toEqual(["merch.rejected"]);
  });

  it("the 'confirmed' email goes once per order: approving again (after 'Mark pending', after a rejection, or by the JSON call) sends none, and staff are told", async () => {
    const id = await placeOrder();
    const before = (await outbox()).length;
    let r = await setStatus({ id, status: "approved" });
    expect(r.data.message).toBe(`Order ${id} approved.`);
    const first = await db.selectFrom("merch_orders").select(["confirmation_sent_at", "reviewed_at"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(first.confirmation_sent_at).toBe(first.reviewed_at);
    await setStatus({ id, status: "pending", confirmed: "yes" });
    r = await setStatus({ id, status: "approved" });
    expect(r.data.message).toMatch(new RegExp(`^Order ${id} approved\. Its 'confirmed' email was sent on .+ EAT, so it was not sent again\.$`));
    await setStatus({ id, status: "rejected", confirmed: "yes" });
    await setStatus({ id, status: "approved" });
    await setStatus({ id, status: "pending", confirmed: "yes" });
    await changeMerchOrderStatus(db, { id, status: "approved" }, staff(STAFF));
    expect((await outbox()).slice(before).map((m) => m.kind)).toEqual(["merch.approved", "merch.rejected"]);
    const last = await db.selectFrom("merch_orders").select("confirmation_sent_at").where("id", "=", id).executeTakeFirstOrThrow();
    expect(last.confirmation_sent_at).toBe(first.confirmation_sent_at);
  });

  it("failures: 'Could not update order' with the reason for a 4xx, nothing recorded", async () => {
    let r = await setStatus({ id: "MO-ZZZZZZ", status: "approved" });
    expect(r.status).toBe(404);
    expect(r.data).toMatchObject({ status: "error", message: "Could not update order: Order not found.", result: { order: null } });
    const id = await placeOrder();
    r = await setStatus({ id, status: "shipped" });
    expect(r.status).toBe(400);
    expect(r.data.message).toBe("Could not update order: status must be pending, approved or rejected.");
    r = await setStatus({ id, status: "rejected", notes: "x".repeat(1001) });
    expect(r.data.message).toBe("Could not update order: Staff notes must be under 1,000 characters.");
    expect(await activity("merch.order_status")).toEqual([]);
    expect((await listMerchOrders(db, id))[0]!.status).toBe("pending");
  });

  it("when the list cannot be read: 'Could not load orders' and an empty list", async () => {
    await sql`DROP TABLE merch_orders`.execute(db);
    const page = await ordersPage();
    expect(page.loadError).toBe("Could not load orders");
    expect(page.orders).toEqual([]);
  });
});
