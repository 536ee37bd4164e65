import fs from "node:fs";
import { unzipSync, strFromU8 } from "fflate";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDarajaFake } from "../support/daraja-fake.mjs";
import * as peopleApi from "~/routes/api/people";
import * as orderAsset from "~/routes/admin/badge-order-asset";
import * as supporterPortrait from "~/routes/event/supporter-portrait";
import { subscribe } from "~/features/newsletter/newsletter.server";
import { submitApplication } from "~/features/applications/applications.server";
import { ApplicationSchema } from "~/features/applications/applications.schema";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { attachBadgeAssets, setBadgeOrderStatus, submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { checkIn } from "~/features/event-badges/check-in.server";
import { eventProgress } from "~/features/event-badges/progress.server";
import { CheckoutSchema } from "~/features/merch/merch.schema";
import { saveCatalogue, submitMerchOrder } from "~/features/merch/merch.server";
import { FALLBACK_CATALOGUE } from "~/features/merch/merch";
import { getBadgeOrder } from "~/features/reconciliation/orders.server";
import { sendStkPush } from "~/features/stk-push/stk-push.server";
import { forgetDarajaTokensForTests } from "~/features/stk-push/daraja-client.server";
import { erasePerson, findPerson } from "~/features/people/people.server";
import { downloadMyData, openMyDataLink, pendingEraseRequests, requestMyData, sendEraseRequest } from "~/features/people/data-requests.server";
import * as myDataPage from "~/routes/site/my-data";
import * as myDataDownload from "~/routes/site/my-data-download";
import { MY_DATA_SENT } from "~/routes/site/my-data";
import { staff } from "~/lib/core/actor";
import { isPostgres, type Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { plainKitPng } from "../support/kit-png";
import { args, formPost, get, jsonPost } from "../support/http";
import { freshApp } from "../support/reset";
import { processPortrait } from "~/features/event-badges/portrait.server";
import { startStkCallbackBridge } from "../support/stk-bridge";

const SECRET = "stk-callback-secret-0123456789";
const ADMIN = { "X-Admin-Key": "test-admin-key-0123456789" };
const EMAIL = "nyokabi.chepkoech@example.org";
const NAME = "Nyokabi Chepkoech";
/** The phone as each form and M-Pesa spell it; a raw scan looks for every one. */
const PHONE_SPELLINGS = ["0712345678", "0712 345 678", "+254 712-345-678", "254712345678", "712345678", "712 345 678", "712-345-678"];
const OTHER = { name: "Achieng Otieno", email: "achieng@example.org" };

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

let db: Db;
beforeEach(async () => {
  db = await freshApp({
    PUBLIC_URL: bridgeUrl,
    DARAJA_BASE_URL: fake.url,
    DARAJA_CONSUMER_KEY: fake.consumerKey,
    DARAJA_CONSUMER_SECRET: fake.consumerSecret,
    DARAJA_PASSKEY: fake.passkey,
    MPESA_CALLBACK_SECRET: SECRET,
    MPESA_SHORTCODE: "880100",
  });
  fake.set({ push: "ok", outcome: null, resultCodeAs: "number" });
  forgetDarajaTokensForTests();
});

/** The person: subscribed, applied, a badge with a portrait paid by prompt and checked in, a merch order. Someone else ordered too. */
async function aPersonWithEverything() {
  await subscribe(db, { email: EMAIL, source: "newsletter" });
  await submitApplication(db, ApplicationSchema.parse({ name: NAME, email: EMAIL, phone: "0712-345-678", role: "Evangelism / Bible Studies", message: "I would like to pray with you." }));
  const portrait = await processPortrait(new Uint8Array(await plainKitPng()));
  const badge = await submitBadgeOrder(
    db,
    BadgeOrderSchema.parse({ tierKey: "t3", name: NAME, email: EMAIL, phone: "0712 345 678", payWith: "stk", showOnWall: "on", wallName: "Nyokabi", wallPortrait: "on" }),
    portrait,
  );
  const sent = await sendStkPush(db, { kind: "badge", orderId: badge.id, phone: "+254 712-345-678", ip: "10.0.0.1" });
  if (sent.state !== "sent") throw new Error(`prompt not sent: ${sent.state}`);
  await fake.answer(sent.checkoutRequestId, "paid");
  expect((await getBadgeOrder(db, badge.id)).payment.state).toBe("verified");
  await attachBadgeAssets(db, badge.id, { badge: await plainKitPng(), poster: await plainKitPng() }, staff("10.0.0.42"));
  await setBadgeOrderStatus(db, badge.id, "approved", staff("10.0.0.42"));
  await checkIn(db, { reference: badge.id }, staff("10.0.0.42"));
  await saveCatalogue(db, FALLBACK_CATALOGUE);
  const merch = await submitMerchOrder(
    db,
    CheckoutSchema.parse({ customerName: NAME, customerEmail: EMAIL, customerPhone: "254712345678", notes: "Call me on 0712 345 678", paymentReference: "SK11111111" }),
    [{ itemId: "SL-TOTE", color: null, size: "One size", quantity: 1 }],
  );
  const other = await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t1", name: OTHER.name, email: OTHER.email, phone: "0722000111", paymentReference: "SK22222222" }), null);
  const row = await db.selectFrom("badge_orders").select(["asset_token", "wall_key"]).where("id", "=", badge.id).executeTakeFirstOrThrow();
  return { badgeId: badge.id, merchId: merch.id, otherId: other.id, token: row.asset_token, wallKey: row.wall_key! };
}

const people = (body: unknown, headers: Record<string, string> = ADMIN) => peopleApi.action(args(jsonPost("/api/people.php", body, headers)));

/** Every row of every table, each string (and stored byte) value, with where it was. */
async function everyValue(): Promise<{ where: string; text: string }[]> {
  const out: { where: string; text: string }[] = [];
  const tables = isPostgres(db)
    ? (await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(db)).rows.map((r) => r.t)
    : (await sql<{ t: string }>`select name as t from sqlite_master where type = 'table'`.execute(db)).rows.map((r) => r.t);
  expect(tables.length).toBeGreaterThan(30);
  for (const t of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(db)).rows;
    for (const row of rows) {
      for (const [col, v] of Object.entries(row)) {
        if (typeof v === "string") out.push({ where: `${t}.${col}`, text: v });
        else if (Buffer.isBuffer(v) || v instanceof Uint8Array) out.push({ where: `${t}.${col}`, text: Buffer.from(v).toString("latin1") });
      }
    }
  }
  return out;
}

const looksFor = [EMAIL, NAME, ...PHONE_SPELLINGS];
const found = (texts: { where: string; text: string }[]) =>
  texts.flatMap(({ where, text }) => looksFor.filter((s) => text.toLowerCase().includes(s.toLowerCase())).map((s) => `${where}: ${s}`));

async function totals() {
  const badge = await db.selectFrom("badge_orders").select([sql<number>`count(*)`.as("n"), sql<number>`sum(amount)`.as("sum")]).executeTakeFirstOrThrow();
  const merch = await db.selectFrom("merch_orders").select([sql<number>`count(*)`.as("n"), sql<number>`sum(total)`.as("sum")]).executeTakeFirstOrThrow();
  const paid = await db.selectFrom("received_payments").select([sql<number>`count(*)`.as("n"), sql<number>`sum(amount)`.as("sum")]).executeTakeFirstOrThrow();
  const progress = await eventProgress(db);
  return { badge: { n: Number(badge.n), sum: Number(badge.sum) }, merch: { n: Number(merch.n), sum: Number(merch.sum) }, paid: { n: Number(paid.n), sum: Number(paid.sum) }, progress };
}

describe("one person's data: find, export, erase", () => {
  it("finds them by email, phone in any spelling, or name, in every table that holds their data", async () => {
    const p = await aPersonWithEverything();
    for (const q of [EMAIL.toUpperCase(), "0712345678", "+254 712 345 678", "254712345678", "nyokabi chepkoech"]) {
      const f = await findPerson(db, q);
      const tables = new Set(f.holdings.map((h) => h.table));
      for (const t of ["subscribers", "applications", "badge_orders", "merch_orders", "stk_pushes", "received_payments", "outbox"]) expect(tables, `${q}: ${t}`).toContain(t);
      expect(f.holdings.find((h) => h.ref === p.badgeId)!.holds).toEqual(expect.arrayContaining(["name", "email", "phone", "portrait", "badge kit"]));
      expect(f.holdings.some((h) => h.ref === p.otherId)).toBe(false);
      expect(f.files).toEqual([`${p.badgeId}-portrait.jpg`, `${p.badgeId}-badge.png`, `${p.badgeId}-poster.jpg`]);
    }
  });

  it("exports every record and the portrait as one ZIP; erases, and then the database holds neither email, phone nor name", async () => {
    const p = await aPersonWithEverything();
    const before = await totals();

    // The admin key is required.
    expect((await people({ action: "export", email: EMAIL }, {})).status).toBe(401);
    expect((await people({ action: "erase" })).status).toBe(400);
    expect((await people({ action: "export", email: "nobody@example.org" })).status).toBe(404);

    const exported = await people({ action: "export", phone: "0712 345 678" });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await exported.arrayBuffer()));
    const doc = JSON.parse(strFromU8(files["records.json"]!)) as { records: Record<string, Record<string, unknown>[]> };
    expect(doc.records.subscribers).toEqual([expect.objectContaining({ email: EMAIL })]);
    expect(doc.records.applications).toEqual([expect.objectContaining({ name: NAME, message: "I would like to pray with you." })]);
    expect(doc.records.badge_orders!.map((r) => r.id)).toEqual([p.badgeId]);
    expect(doc.records.badge_orders![0]).toMatchObject({ checked_in_at: expect.any(String), status: "approved" });
    expect(doc.records.badge_orders![0]).not.toHaveProperty("asset_token");
    expect(doc.records.merch_orders!.map((r) => r.id)).toEqual([p.merchId]);
    expect(doc.records.stk_pushes).toHaveLength(1);
    expect(doc.records.received_payments).toHaveLength(1);
    expect(doc.records.outbox!.length).toBeGreaterThan(0);
    const portrait = await db.selectFrom("badge_orders").select("id").where("id", "=", p.badgeId).executeTakeFirstOrThrow();
    // Each file as stored: the portrait and poster JPEG (FF D8 FF), the badge PNG.
    expect(Buffer.from(files[`files/${portrait.id}-portrait.jpg`]!).subarray(0, 3).toString("hex")).toBe("ffd8ff");
    expect(Buffer.from(files[`files/${p.badgeId}-badge.png`]!).subarray(1, 4).toString()).toBe("PNG");
    expect(Buffer.from(files[`files/${p.badgeId}-poster.jpg`]!).subarray(0, 3).toString("hex")).toBe("ffd8ff");
    expect(JSON.stringify(doc)).not.toContain(OTHER.email);

    // The portrait and kit answer before the erasure.
    const asset = (file: string) => orderAsset.loader({ ...args(get(`/admin/badge-orders/${p.badgeId}/${file}?t=${p.token}`)), params: { id: p.badgeId, file } } as never);
    const wall = () => supporterPortrait.loader({ ...args(get(`/event/supporters/${p.wallKey}.webp`)), params: { file: `${p.wallKey}.webp` } } as never);
    expect((await asset("portrait.jpg")).status).toBe(200);
    expect((await asset("badge.png")).status).toBe(200);
    expect((await wall()).status).toBe(200);
    expect(found(await everyValue()).length).toBeGreaterThan(5);

    const erased = await people({ action: "erase", email: EMAIL });
    expect(erased.status).toBe(200);
    expect(await erased.json()).toMatchObject({ ok: true, erased: { ordersKept: 2, applications: 1, subscriptions: 1, files: 3 } });

    // Nowhere in any text column of any table.
    expect(found(await everyValue())).toEqual([]);
    // Nor in the SQLite file's bytes, the write-ahead log folded in.
    if (!isPostgres(db)) {
      const file = env().databasePath;
      const bytes = Buffer.concat([fs.readFileSync(file), ...(fs.existsSync(`${file}-wal`) ? [fs.readFileSync(`${file}-wal`)] : [])]).toString("latin1");
      expect(looksFor.filter((s) => bytes.toLowerCase().includes(s.toLowerCase()))).toEqual([]);
    }
    expect((await asset("portrait.jpg")).status).toBe(404);
    expect((await asset("badge.png")).status).toBe(404);
    expect((await asset("poster.jpg")).status).toBe(404);
    expect((await wall()).status).toBe(404);

    // The accounts are as they were: the orders, their amounts, receipts and states.
    expect(await totals()).toEqual(before);
    const kept = await getBadgeOrder(db, p.badgeId);
    expect(kept).toMatchObject({ status: "approved", amount: 1300 });
    expect(kept.payment.state).toBe("verified");
    const other = await getBadgeOrder(db, p.otherId);
    expect(other).toMatchObject({ name: OTHER.name, email: OTHER.email });

    // Logged, without the erased data.
    const log = await db.selectFrom("activity").selectAll().where("type", "=", "people.erase").execute();
    expect(log).toHaveLength(1);
    expect(log[0]!.message).toMatch(/^A person's data was erased \(api\): 2 order\(s\) kept without the person/);

    // Nothing left to find or erase.
    expect((await findPerson(db, EMAIL)).holdings).toEqual([]);
    expect((await people({ action: "erase", email: EMAIL })).status).toBe(404);
  });
});

describe("a person's own request from /privacy/my-data", () => {
  const mailsTo = (to: string) => db.selectFrom("outbox").selectAll().where("to_address", "=", to).where("kind", "like", "people.%").execute();
  const tokenIn = (text: string, path: string) => new URL(new RegExp(`https?://\\S+${path}\\?token=\\S+`).exec(text)![0]).searchParams.get("token")!;

  it("mails a 24-hour link to that address only; the link downloads the same ZIP; whoever typed it sees the same words either way", async () => {
    await aPersonWithEverything();
    const ask = (email: string) => myDataPage.action(args(formPost("/privacy/my-data", { email, kind: "export" })));
    expect(await ask(EMAIL)).toEqual({ ok: true, message: MY_DATA_SENT });
    expect(await ask("nobody@example.org")).toEqual({ ok: true, message: MY_DATA_SENT });
    expect(await mailsTo("nobody@example.org")).toEqual([]);
    const [mail] = await mailsTo(EMAIL);
    expect(mail).toMatchObject({ kind: "people.export-link", subject: expect.stringContaining("Your data") });
    const token = tokenIn(mail!.text_body, "/privacy/my-data/download");

    const download = (t: string) => myDataDownload.loader({ ...args(get(`/privacy/my-data/download?token=${encodeURIComponent(t)}`)), params: {} } as never) as Promise<Response>;
    const res = await download(token);
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(JSON.parse(strFromU8(files["records.json"]!)).records.subscribers).toEqual([expect.objectContaining({ email: EMAIL })]);
    expect(Object.keys(files).some((f) => f.endsWith("-portrait.jpg"))).toBe(true);
    expect((await download("not-a-token")).status).toBe(404);
    // A day later the link leads nowhere.
    expect(await downloadMyData(db, token, new Date(Date.now() + 24 * 3_600_000 + 1000))).toBeNull();
  });

  it("a request to erase reaches staff as a request to confirm; the erasure closes it", async () => {
    await aPersonWithEverything();
    await requestMyData(db, { email: EMAIL, kind: "erase" });
    const [mail] = await mailsTo(EMAIL);
    const token = tokenIn(mail!.text_body, "/privacy/my-data/erase");
    // Opening the link changes nothing (mail scanners open links); the press sends it.
    expect(await openMyDataLink(db, token)).toEqual({ state: "erase", token, sent: false });
    expect(await pendingEraseRequests(db)).toEqual([]);
    expect(await sendEraseRequest(db, token)).toBe(true);
    expect(await pendingEraseRequests(db)).toEqual([{ email: EMAIL, confirmedAt: expect.any(String) }]);
    const staffMail = await db.selectFrom("outbox").selectAll().where("kind", "=", "people.erase-request").executeTakeFirstOrThrow();
    expect(staffMail.to_address).not.toBe(EMAIL);
    expect(staffMail.text_body).not.toContain(EMAIL);
    // Nothing is erased until staff do it.
    expect((await findPerson(db, EMAIL)).holdings.length).toBeGreaterThan(5);
    await erasePerson(db, EMAIL, staff("10.0.0.42"), "staff screen");
    expect(await pendingEraseRequests(db)).toEqual([]);
  });
});
