import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as badgeOrdersApi from "~/routes/api/badge-orders";
import * as assetRoute from "~/routes/admin/badge-order-asset";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import { ORIGIN, args, formPost, get, jsonPost, readJson, type ApiError, testContext } from "../support/http";
import { freshApp } from "../support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";
import { readStored } from "../support/stored-files";
import { rowCount } from "../support/domain";

/** Staff notes as a log: these entries, each dated, in this order (nothing replaced). */
const noteLog = (...entries: string[]) =>
  expect.stringMatching(new RegExp(`^${entries.map((e) => `\\[[^\\]]+ EAT\\] ${e.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`).join("\n")}$`));

const KEY = "test-admin-key-0123456789";
const ADMIN = { "X-Admin-Key": KEY };
const URL_ = "/api/badge_orders.php";
const ID = /^BO-[0-9A-Z]{6}$/;

const TYPE_MESSAGE = "Please choose an image file (PNG, JPG, or WEBP).";
const SIZE_MESSAGE = "Please choose an image smaller than 6MB.";
const CODE_FORMAT =
  "Enter the M-Pesa confirmation code (10 letters and numbers), or paste the whole confirmation SMS.";
const USED =
  "This payment confirmation code has already been used for an order. Check the code, or email us if you think this is a mistake.";

/** The fields of spec section 3, 'Badge order as read by admin'. */
const ADMIN_FIELDS = [
  "id",
  "name",
  "email",
  "phone",
  "hardCopy",
  "tierKey",
  "tierName",
  "amount",
  "paymentReference",
  "notes",
  "status",
  "createdAt",
  "approvedAt",
  "delivery",
  "portraitPath",
  "badgePath",
  "posterPath",
  // Added for rejections: what staff wrote (emailed to the supporter).
  "staffNote",
  // Added for reconciliation: where the payment stands in M-Pesa's records.
  "payment",
  // Added for the supporter wall: the supporter's choices and whether staff hid them.
  "wall",
  // Added for verifiable badges: a revoked supporter badge (when, and the reason), or null.
  "badgeRevoked",
].sort();

type Order = Record<string, unknown> & {
  id: string;
  status: string;
  approvedAt: string | null;
  portraitPath: string | null;
  badgePath: string | null;
  posterPath: string | null;
};

let ip = 0;
/** A different client address per call, so the per-address limit stays out of the way. */
const nextIp = () => `10.1.${Math.floor(++ip / 250)}.${ip % 250}`;
let codes = 0;
const nextCode = () => `QC${String(++codes).padStart(8, "0")}`;

const order = (fields: Record<string, unknown> = {}) => ({
  tierKey: "t3",
  tierName: "Big Friend",
  amount: 1300,
  name: "Jane Wanjiru",
  email: "jane@example.org",
  phone: "",
  paymentReference: nextCode(),
  hardCopy: false,
  notes: "",
  portraitDataUrl: null,
  shareUrl: "http://site.test/event",
  ...fields,
});

const post = (body: unknown, headers: Record<string, string> = {}, address = nextIp()) =>
  badgeOrdersApi.action(args(jsonPost(URL_, body, headers), address));

async function create(fields: Record<string, unknown> = {}) {
  const { status, body } = await readJson<{ ok: boolean; id: string }>(await post(order(fields)));
  expect(status).toBe(200);
  expect(body).toEqual({ ok: true, id: expect.stringMatching(ID), orderUrl: expect.stringMatching(/^http:\/\/site\.test\/orders\/[BM]O-[0-9A-Z]{6}\?t=[\w-]+$/) });
  return body.id;
}

const list = (query = "", headers: Record<string, string> = ADMIN) =>
  badgeOrdersApi.loader(args(get(`${URL_}${query}`, headers)));

async function listItems(query = ""): Promise<Order[]> {
  const { status, body } = await readJson<{ ok: boolean; items: Order[] }>(await list(query));
  expect(status).toBe(200);
  expect(body.ok).toBe(true);
  return body.items;
}

async function expectApiError(res: Response, status: number) {
  const { body } = await readJson<ApiError>(res);
  expect(res.status).toBe(status);
  expect(body.ok).toBe(false);
  expect(Object.keys(body).sort()).toEqual(["error", "ok"]);
  expect(body.error.length).toBeGreaterThan(0);
  return body.error;
}

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
const dataUrl = (bytes: Buffer, type = "image/png") => `data:${type};base64,${bytes.toString("base64")}`;

let BADGE_URL: string;
let POSTER_URL: string;
let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  BADGE_URL = dataUrl(await png(1080, 1080, "#123b5d"));
  POSTER_URL = dataUrl(await png(1080, 1080, "#e0892b"));
});
afterAll(async () => {
  await smtp.close();
});

let db: Db;
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: smtp.url });
  smtp.clear();
});

const rowOf = (id: string) => db.selectFrom("badge_orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const orderCount = () => rowCount(db, "badge_orders");
const activity = () => db.selectFrom("activity").select(["type", "meta", "actor_ip"]).orderBy("id").execute();

const attach = (id: string, headers: Record<string, string> = ADMIN, address = "10.9.9.9") =>
  post({ id, badgeDataUrl: BADGE_URL, posterDataUrl: POSTER_URL }, headers, address);
const setStatus = (id: string, status: string, headers: Record<string, string> = ADMIN, address = "10.9.9.9") =>
  post({ id, status }, headers, address);

/** Fetches an asset link as a browser would, through the asset route's loader. */
function fetchAsset(link: string, headers: Record<string, string> = {}) {
  const url = new URL(link, ORIGIN);
  const [, , , id, file] = url.pathname.split("/");
  return assetRoute.loader({
    request: new Request(url, { headers }),
    url,
    params: { id: id!, file: file! },
    context: testContext(),
  } as unknown as Parameters<typeof assetRoute.loader>[0]);
}

describe("POST /api/badge_orders.php (public): a supporter's confirmation", () => {
  it("answers {ok:true,id} and stores a pending order priced by the server", async () => {
    const id = await create({ tierKey: "t1", tierName: "Champion", amount: 1, shareUrl: "https://evil.example/", hardCopy: true });
    expect(await rowOf(id)).toMatchObject({
      tier_key: "t1",
      tier_name: "Friends Badge",
      amount: 300,
      status: "pending",
      hard_copy: 1,
      share_url: "http://site.test/event?utm_source=share&utm_medium=badge&utm_campaign=event_t1",
      portrait_file: null,
    });
    expect(await db.selectFrom("outbox").select(["kind", "to_address"]).execute()).toEqual([
      { kind: "badge.received", to_address: "jane@example.org" },
    ]);
  });

  it.each([
    ["letters only", "QKABCDEFGH", "QKABCDEFGH"],
    ["digits inside", "TKL9ZX2M4Q", "TKL9ZX2M4Q"],
    ["typed lower-case with spaces", " tkl9 zx2m4q ", "TKL9ZX2M4Q"],
    ["a pasted SMS with a letters-only code", "QKABCDEFGH Confirmed. Ksh1,300.00 sent to STREET LIGHT OUTREACH for account T3 on 12/11/25 at 7:42 PM.", "QKABCDEFGH"],
  ])("a real M-Pesa code (%s) is accepted and stored as the code", async (_, typed, stored) => {
    const id = await create({ paymentReference: typed });
    expect((await rowOf(id)).payment_reference).toBe(stored);
  });

  it("accepts a url-encoded form body with hardCopy 'on'", async () => {
    const fields = { tierKey: "t2", name: "Otieno", email: "o@example.org", paymentReference: "SKL4Q2ZB7X", hardCopy: "on" };
    const res = await badgeOrdersApi.action(args(formPost(URL_, fields)));
    const { body } = await readJson<{ ok: boolean; id: string }>(res);
    expect(body).toEqual({ ok: true, id: expect.stringMatching(ID), orderUrl: expect.stringMatching(/^http:\/\/site\.test\/orders\/[BM]O-[0-9A-Z]{6}\?t=[\w-]+$/) });
    expect(await rowOf(body.id)).toMatchObject({ tier_name: "Helping Hand", amount: 500, hard_copy: 1 });
  });

  it("with a portraitDataUrl, stores a re-encoded 720x720 JPEG (never the sent bytes) and sets portraitPath", async () => {
    const original = await png(900, 600, "#aa3355");
    const id = await create({ portraitDataUrl: dataUrl(original) });
    expect((await rowOf(id)).portrait_file).toBe("portrait.jpg");
    const stored = (await readStored(`badge-orders/${id}/portrait.jpg`))!;
    expect(stored.equals(original)).toBe(false);
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 720, 720]);

    const [item] = await listItems();
    expect(item!.portraitPath).toMatch(new RegExp(`^/admin/badge-orders/${id}/portrait\\.jpg\\?t=[\\w-]+$`));
    const res = await fetchAsset(item!.portraitPath!);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(stored)).toBe(true);
  });

  it("a JPEG portrait is re-encoded too", async () => {
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#335577" } }).jpeg().toBuffer();
    const id = await create({ portraitDataUrl: dataUrl(jpeg, "image/jpeg") });
    const stored = (await readStored(`badge-orders/${id}/portrait.jpg`))!;
    expect(stored.equals(jpeg)).toBe(false);
    expect((await sharp(stored).metadata()).format).toBe("jpeg");
  });

  it.each([
    ["an SVG data URL", async () => `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString("base64")}`],
    ["a text data URL", async () => "data:text/plain;base64,aGVsbG8="],
    ["GIF bytes labelled PNG", async () => dataUrl(await sharp({ create: { width: 20, height: 20, channels: 3, background: "#000" } }).gif().toBuffer())],
    ["garbage labelled PNG", async () => dataUrl(Buffer.from("definitely not a picture"))],
    ["a link", async () => "https://example.org/me.png"],
  ])("a portrait that is %s is a 400 with the portrait message; nothing stored, the code still free", async (_, make) => {
    const res = await post(order({ paymentReference: "SKL4Q2ZB7X", portraitDataUrl: await make() }));
    expect(await expectApiError(res, 400)).toBe(TYPE_MESSAGE);
    expect(await orderCount()).toBe(0);
    await create({ paymentReference: "SKL4Q2ZB7X" });
  });

  it("a portrait over 6 MB is a 413 with the size message", async () => {
    const big = `data:image/png;base64,${Buffer.alloc(6 * 1024 * 1024 + 1024).toString("base64")}`;
    const res = await post(order({ portraitDataUrl: big }));
    expect(await expectApiError(res, 413)).toBe(SIZE_MESSAGE);
    expect(await orderCount()).toBe(0);
  });

  it.each([
    ["an empty name", { name: "" }, "Please enter your full name."],
    ["a name of spaces", { name: "   " }, "Please enter your full name."],
    ["no name", { name: undefined }, "Please enter your full name."],
    ["a bad email", { email: "jane@example" }, "Please provide a valid email address."],
    ["no email", { email: undefined }, "Please provide a valid email address."],
    ["an empty code", { paymentReference: "" }, "Payment confirmation code is required."],
    ["no code", { paymentReference: undefined }, "Payment confirmation code is required."],
    ["a malformed code", { paymentReference: "AB12" }, CODE_FORMAT],
    ["an unknown tier", { tierKey: "t9" }, "Tier configuration missing."],
    ["no tier", { tierKey: undefined }, "Tier configuration missing."],
  ])("%s is a 400 {ok:false,error} with the spec's message", async (_, fields, message) => {
    const res = await post(order(fields));
    expect(await expectApiError(res, 400)).toBe(message);
    expect(await orderCount()).toBe(0);
  });

  it("a code another person's order used (even lower-cased or inside the SMS) is a 409", async () => {
    await create({ paymentReference: "SKL4Q2ZB7X" });
    for (const again of ["SKL4Q2ZB7X", "skl4q2zb7x", "SKL4Q2ZB7X Confirmed. Ksh1,300.00 sent to STREET LIGHT OUTREACH."]) {
      expect(await expectApiError(await post(order({ paymentReference: again, email: "someone.else@example.org" })), 409)).toBe(USED);
    }
    expect(await orderCount()).toBe(1);
  });

  it("a filled honeypot answers {ok:true,id:null} and stores nothing", async () => {
    const { body } = await readJson(await post(order({ website: "http://spam.example" })));
    expect(body).toEqual({ ok: true, id: null });
    expect(await orderCount()).toBe(0);
  });

  it("malformed JSON is a 400 JSON answer", async () => {
    expect(await expectApiError(await post("{not json"), 400)).toBe("Request body must be valid JSON.");
  });

  it("the eleventh confirmation from one address in ten minutes is a 429 with Retry-After", async () => {
    for (let i = 0; i < 10; i++) expect((await post(order(), {}, "10.0.0.77")).status).toBe(200);
    const res = await post(order(), {}, "10.0.0.77");
    expect(await expectApiError(res, 429)).toMatch(/^Too many attempts/);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await post(order(), {}, "10.0.0.78")).status).toBe(200);
  });

  it("other methods are a 405 JSON answer", async () => {
    const res = await badgeOrdersApi.action(args(new Request(ORIGIN + URL_, { method: "DELETE" })));
    await expectApiError(res, 405);
  });
});

describe("GET /api/badge_orders.php (admin)", () => {
  /** Three orders a minute apart (a oldest); b approved, c rejected. */
  async function seed() {
    const a = await create({ name: "Amina Otieno", email: "amina@example.org", tierKey: "t1", paymentReference: "AMN1234567" });
    const b = await create({ name: "Brian Kamau", email: "brian@example.org", tierKey: "t3", paymentReference: "BRN7654321" });
    const c = await create({ name: "Chebet Sure_Thing", email: "chebet@example.org", tierKey: "t5", paymentReference: "CHB1112223" });
    for (const [i, id] of [a, b, c].entries()) {
      await db
        .updateTable("badge_orders")
        .set({ created_at: new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString() })
        .where("id", "=", id)
        .execute();
    }
    expect((await attach(b)).status).toBe(200);
    expect((await setStatus(b, "approved")).status).toBe(200);
    expect((await setStatus(c, "rejected")).status).toBe(200);
    return { a, b, c };
  }
  const ids = async (query = "") => (await listItems(query)).map((o) => o.id);

  it("without a key is a 401; a wrong key is a 401", async () => {
    await create();
    expect(await expectApiError(await list("", {}), 401)).toBe("Admin key required.");
    expect(await expectApiError(await list("", { "X-Admin-Key": "wrong-key-wrong-key" }), 401)).toBe("That admin key is not right.");
  });

  it("lists {ok:true, items} oldest first, each item with the admin fields of spec section 3", async () => {
    const { a, b, c } = await seed();
    const items = await listItems();
    expect(items.map((o) => o.id)).toEqual([a, b, c]);
    for (const item of items) {
      const keys = Object.keys(item).filter((k) => k !== "shareUrl").sort();
      expect(keys).toEqual(ADMIN_FIELDS);
    }
    const first = items[0]!;
    expect(first).toMatchObject({
      id: a,
      name: "Amina Otieno",
      email: "amina@example.org",
      phone: "",
      hardCopy: false,
      tierKey: "t1",
      tierName: "Friends Badge",
      amount: 300,
      paymentReference: "AMN1234567",
      notes: "",
      status: "pending",
      createdAt: "2026-01-01T10:00:00.000Z",
      approvedAt: null,
      delivery: null,
      portraitPath: null,
      badgePath: null,
      posterPath: null,
    });
    const approved = items[1]!;
    expect(approved.status).toBe("approved");
    expect(typeof approved.approvedAt).toBe("string");
    expect(approved.delivery).toMatchObject({ ok: expect.any(Boolean), detail: expect.any(String) });
    expect(approved.badgePath).toMatch(/^\/admin\/badge-orders\/BO-[0-9A-Z]{6}\/badge\.png\?t=/);
  });

  it("status filters; omitted means all", async () => {
    const { a, b, c } = await seed();
    expect(await ids("?status=pending")).toEqual([a]);
    expect(await ids("?status=approved")).toEqual([b]);
    expect(await ids("?status=rejected")).toEqual([c]);
    expect(await ids("?status=")).toEqual([a, b, c]);
  });

  it("q searches name, email, code, tier and id; '_' is literal", async () => {
    const { a, b, c } = await seed();
    expect(await ids("?q=AMINA")).toEqual([a]);
    expect(await ids("?q=brian%40example")).toEqual([b]);
    expect(await ids("?q=chb1112223")).toEqual([c]);
    expect(await ids("?q=big+friend")).toEqual([b]);
    expect(await ids(`?q=${b.toLowerCase()}`)).toEqual([b]);
    expect(await ids("?q=_")).toEqual([c]);
    expect(await ids("?q=%25")).toEqual([]);
    expect(await ids("?status=pending&q=brian")).toEqual([]);
  });

  it("a bad status is a 400 that names the allowed values once", async () => {
    const error = await expectApiError(await list("?status=bogus"), 400);
    expect(error).toMatch(/pending, approved or rejected/);
    expect(error).not.toMatch(/status: status/i);
  });
});

describe("POST /api/badge_orders.php (admin): assets", () => {
  it("valid 1080x1080 PNG data URLs: {ok:true, order} with badge and poster links; activity recorded", async () => {
    const id = await create();
    const { status, body } = await readJson<{ ok: boolean; order: Order }>(await attach(id));
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(Object.keys(body).sort()).toEqual(["ok", "order"]);
    expect(body.order.id).toBe(id);
    expect(Object.keys(body.order).filter((k) => k !== "shareUrl").sort()).toEqual(ADMIN_FIELDS);
    expect(body.order.badgePath).toMatch(new RegExp(`^/admin/badge-orders/${id}/badge\\.png\\?t=[\\w-]+$`));
    expect(body.order.posterPath).toMatch(new RegExp(`^/admin/badge-orders/${id}/poster\\.jpg\\?t=[\\w-]+$`));
    // The badge stays a PNG (its assertion is baked in); the poster is kept as JPEG.
    for (const [file, format] of [["badge.png", "png"], ["poster.jpg", "jpeg"]]) {
      const meta = await sharp((await readStored(`badge-orders/${id}/${file}`))!).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, 1080, 1080]);
    }
    expect(await activity()).toEqual([{ type: "badge_orders.assets", meta: JSON.stringify({ id }), actor_ip: "10.9.9.9" }]);
  });

  it.each([
    ["a 100x100 PNG badge", async () => ({ badgeDataUrl: dataUrl(await png(100, 100, "#000")) }), "badgeDataUrl must be a 1080x1080 PNG image."],
    [
      "a JPEG poster",
      async () => ({ posterDataUrl: dataUrl(await sharp({ create: { width: 1080, height: 1080, channels: 3, background: "#000" } }).jpeg().toBuffer(), "image/jpeg") }),
      "posterDataUrl must be a 1080x1080 PNG image.",
    ],
    ["no poster", async () => ({ posterDataUrl: undefined }), "posterDataUrl is required."],
  ])("%s is a 400 and nothing is attached", async (_, make, message) => {
    const id = await create();
    const res = await post({ id, badgeDataUrl: BADGE_URL, posterDataUrl: POSTER_URL, ...(await make()) }, ADMIN);
    expect(await expectApiError(res, 400)).toBe(message);
    expect(await rowOf(id)).toMatchObject({ badge_file: null, poster_file: null });
    expect(await activity()).toEqual([]);
  });

  it("an unknown id is a 404; a malformed one a 400", async () => {
    expect(await expectApiError(await attach("BO-000000"), 404)).toBe("Order not found.");
    await expectApiError(await attach("../../etc"), 400);
  });

  it("without a key: 401 and nothing changes", async () => {
    const id = await create();
    expect(await expectApiError(await attach(id, {}), 401)).toBe("Admin key required.");
    expect(await expectApiError(await attach(id, { "X-Admin-Key": "not-the-key-at-all" }), 401)).toBe("That admin key is not right.");
    expect(await rowOf(id)).toMatchObject({ badge_file: null, poster_file: null });
    expect((await readStored(`badge-orders/${id}/badge.png`)) !== null).toBe(false);
    // Only the wrong key is on record (staff see wrong keys in the log).
    expect((await activity()).map((a) => a.type)).toEqual(["admin.api_key_failed"]);
  });
});

describe("POST /api/badge_orders.php (admin): status", () => {
  it("approve before assets is a 409; after, {ok:true, order} approved and the kit is emailed", async () => {
    const id = await create({ email: "kit@example.org" });
    expect(await expectApiError(await setStatus(id, "approved"), 409)).toBe("Generate assets before approving.");
    expect((await rowOf(id)).status).toBe("pending");
    expect(await activity()).toEqual([]);

    await attach(id);
    const { status, body } = await readJson<{ ok: boolean; order: Order }>(await setStatus(id, "approved"));
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.order).toMatchObject({ id, status: "approved", approvedAt: expect.any(String) });
    expect(Object.keys(body.order).filter((k) => k !== "shareUrl").sort()).toEqual(ADMIN_FIELDS);
    expect((await activity()).map((a) => a.type)).toEqual(["badge_orders.assets", "badge_orders.approve"]);
    expect((await activity())[1]).toEqual({ type: "badge_orders.approve", meta: JSON.stringify({ id }), actor_ip: "10.9.9.9" });

    await drainOutbox();
    const kit = smtp.messages.find((m) => m.envelope.to[0] === "kit@example.org" && m.mail.attachments.length > 0);
    expect(kit).toBeDefined();
    // Badge (PNG, baked), poster (JPEG) and the entry QR code (shown inline).
    expect(kit!.mail.attachments.map((a) => a.contentType).sort()).toEqual(["image/jpeg", "image/png", "image/png"]);
    expect(kit!.mail.attachments.filter((a) => a.filename?.endsWith("-entry-qr.png"))).toHaveLength(1);
    for (const a of kit!.mail.attachments.filter((x) => !x.filename?.endsWith("-entry-qr.png"))) {
      const meta = await sharp(a.content).metadata();
      expect([meta.width, meta.height]).toEqual([1080, 1080]);
    }

    expect(await expectApiError(await setStatus(id, "approved"), 409)).toBe("Order is already approved.");
    expect((await activity()).map((a) => a.type)).toEqual(["badge_orders.assets", "badge_orders.approve"]);
  });

  it("reject takes an optional note (older callers send none): kept on the order, put in the supporter's email", async () => {
    const id = await create();
    const { body } = await readJson<{ ok: boolean; order: Order }>(
      await post({ id, status: "rejected", note: "We found no such payment." }, ADMIN, "10.9.9.9"),
    );
    expect(body).toMatchObject({ ok: true, order: { id, status: "rejected", staffNote: noteLog("Rejected. Note to the supporter: We found no such payment.") } });
    const mail = await db.selectFrom("outbox").selectAll().where("kind", "=", "badge.rejected").executeTakeFirstOrThrow();
    expect(mail.text_body).toContain("A note from the team: We found no such payment.");
    expect(await expectApiError(await post({ id: await create(), status: "rejected", note: "x".repeat(501) }, ADMIN, "10.9.9.9"), 400)).toMatch(
      /note is too long/,
    );
  });

  it("reject: {ok:true, order} rejected; again is a 409; a rejected order with assets can be approved", async () => {
    const id = await create();
    const { body } = await readJson<{ ok: boolean; order: Order }>(await setStatus(id, "rejected"));
    expect(body).toMatchObject({ ok: true, order: { id, status: "rejected", approvedAt: null } });
    expect(await expectApiError(await setStatus(id, "rejected"), 409)).toBe("Order is already rejected.");
    await attach(id);
    const approved = await readJson<{ ok: boolean; order: Order }>(await setStatus(id, "approved"));
    expect(approved.body.order.status).toBe("approved");
    expect((await activity()).map((a) => a.type)).toEqual(["badge_orders.reject", "badge_orders.assets", "badge_orders.approve"]);
  });

  it.each([["bogus"], ["pending"], [""]])("status %j is a 400", async (s) => {
    const id = await create();
    await expectApiError(await setStatus(id, s), 400);
    expect((await rowOf(id)).status).toBe("pending");
  });

  it("an unknown id is a 404", async () => {
    expect(await expectApiError(await setStatus("BO-000000", "approved"), 404)).toBe("Order not found.");
    expect(await expectApiError(await setStatus("BO-000000", "rejected"), 404)).toBe("Order not found.");
  });

  it("without a key: 401 and nothing changes", async () => {
    const id = await create();
    await attach(id);
    const before = await rowOf(id);
    expect(await expectApiError(await setStatus(id, "approved", {}), 401)).toBe("Admin key required.");
    expect(await expectApiError(await setStatus(id, "rejected", {}), 401)).toBe("Admin key required.");
    expect(await rowOf(id)).toEqual(before);
    expect((await activity()).map((a) => a.type)).toEqual(["badge_orders.assets"]);
  });
});

describe("asset links (GET /admin/badge-orders/:id/:file)", () => {
  async function withAssets() {
    const id = await create({ portraitDataUrl: dataUrl(await png(200, 200, "#aa3355")) });
    const { body } = await readJson<{ order: Order }>(await attach(id));
    return body.order;
  }

  it("serve the badge as image/png, the poster and portrait as image/jpeg, with the link's token", async () => {
    const o = await withAssets();
    for (const [link, file, type] of [[o.badgePath!, "badge.png", "image/png"], [o.posterPath!, "poster.jpg", "image/jpeg"], [o.portraitPath!, "portrait.jpg", "image/jpeg"]] as const) {
      expect(link.startsWith(`/admin/badge-orders/${o.id}/`)).toBe(true);
      const res = await fetchAsset(link);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe(type);
      expect(res.headers.get("Content-Disposition")).toBe(`inline; filename="${o.id}-${file}"`);
      expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.equals((await readStored(`badge-orders/${o.id}/${file}`))!)).toBe(true);
    }
  });

  it("are a 404 without a token, with a wrong one, or with another order's token", async () => {
    const o = await withAssets();
    const other = await withAssets();
    const otherToken = new URL(other.badgePath!, ORIGIN).searchParams.get("t")!;
    const bare = `/admin/badge-orders/${o.id}/badge.png`;
    expect((await fetchAsset(bare)).status).toBe(404);
    expect((await fetchAsset(`${bare}?t=`)).status).toBe(404);
    expect((await fetchAsset(`${bare}?t=wrong-token`)).status).toBe(404);
    expect((await fetchAsset(`${bare}?t=${otherToken}`)).status).toBe(404);
  });

  it("a token with non-ASCII characters is a 404, not a server error", async () => {
    const o = await withAssets();
    const res = await fetchAsset(`/admin/badge-orders/${o.id}/badge.png?t=%C3%A9`);
    expect(res.status).toBe(404);
  });

  it("are a 404 for a bad id, an unknown order, an unknown file name, or an image not made yet", async () => {
    const o = await withAssets();
    const token = new URL(o.badgePath!, ORIGIN).searchParams.get("t")!;
    const call = (id: string, file: string) =>
      assetRoute.loader({
        request: new Request(`${ORIGIN}/admin/badge-orders/x/y?t=${token}`),
        url: new URL(`${ORIGIN}/admin/badge-orders/x/y?t=${token}`),
        params: { id, file },
        context: testContext(),
      } as unknown as Parameters<typeof assetRoute.loader>[0]);
    expect((await call(o.id, "badge.png")).status).toBe(200);
    for (const [id, file] of [
      ["bo-" + o.id.slice(3).toLowerCase(), "badge.png"],
      ["../../site.db", "badge.png"],
      ["BO-000000", "badge.png"],
      [o.id, "secret.txt"],
      [o.id, "badge.jpg"],
      [o.id, "../site.db"],
    ]) {
      expect((await call(id!, file!)).status).toBe(404);
    }
    const plain = await create();
    const plainToken = (await rowOf(plain)).asset_token;
    for (const file of ["portrait.jpg", "portrait.png", "badge.png", "poster.jpg", "poster.png"]) {
      const res = await fetchAsset(`/admin/badge-orders/${plain}/${file}?t=${plainToken}`);
      expect(res.status).toBe(404);
    }
  });

  it("are served to a signed-in staff session without a token; a forged cookie is not", async () => {
    const o = await withAssets();
    const setCookie = await createAdminSessionCookie(db, new Request(ORIGIN + "/admin"));
    const cookie = setCookie.split(";")[0]!;
    expect(cookie).toMatch(/^__admin=/);
    const bare = `/admin/badge-orders/${o.id}/poster.jpg`;
    const res = await fetchAsset(bare, { Cookie: cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/jpeg");
    expect(Buffer.from(await res.arrayBuffer()).equals((await readStored(`badge-orders/${o.id}/poster.jpg`))!)).toBe(true);
    expect((await fetchAsset(bare, { Cookie: `${cookie.slice(0, -4)}AAAA` })).status).toBe(404);
  });
});
