import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { listActivity } from "~/features/activity/activity.server";
import { staff, system } from "~/lib/core/actor";
import { openDatabase, type Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { putBlob } from "~/lib/db/blob-store.server";
import { drainOutbox, MAX_ATTEMPTS } from "~/lib/mail/email.server";
import { DomainError } from "~/lib/core/domain-error";
import { freshApp } from "../../../tests/support/reset";
import { closedPort, startSmtpReceiver, type SmtpReceiver } from "../../../tests/support/smtp";
import { BadgeOrderSchema } from "./badge-order.schema";
import {
  attachBadgeAssets,
  generateBadgeAssets,
  getBadgeOrder,
  listBadgeOrders,
  readOrderAsset,
  readPortrait,
  resendBadgeKit,
  setBadgeOrderStatus,
  submitBadgeOrder,
} from "./badge-orders.server";
import { processPortrait } from "./portrait.server";
import { bakePng } from "../badge-art/bake.server";
import { orderOfTicket } from "./check-in.server";
import { readQrFromPhoto } from "./ticket-photo.server";
import { referenceInWords, ticketFromScan } from "./ticket";
import { readStored, removeStored, storedNames } from "../../../tests/support/stored-files";
import { domainRefusal as httpError, rowCount as count } from "../../../tests/support/domain";

const ID = /^BO-[0-9A-Z]{6}$/;
/** What the site stores for a badge PNG: the same file with its assertion's address baked in. */
const baked = (id: string, png: Buffer) => bakePng(png, `${env().publicUrl}/badges/assertions/${id}.json`);
/** The staff member doing the work, by the address they came from. */
const STAFF = staff("203.0.113.9");
const USED =
  "This payment confirmation code has already been used for an order. Check the code, or email us if you think this is a mistake.";

let codes = 0;
/** A fresh, valid M-Pesa-like code: ten letters and digits. */
const nextCode = () => `QA${String(++codes).padStart(8, "0")}`;

const input = (fields: Record<string, unknown> = {}) =>
  BadgeOrderSchema.parse({
    tierKey: "t3",
    name: "Jane Wanjiru",
    email: "jane@example.org",
    paymentReference: nextCode(),
    ...fields,
  });

const submit = (db: Db, fields: Record<string, unknown> = {}, portrait: Buffer | null = null) =>
  submitBadgeOrder(db, input(fields), portrait);

const png = (size: number, background: string) =>
  sharp({ create: { width: size, height: size, channels: 3, background } }).png().toBuffer();

/** A stored poster: a 1080x1080 JPEG that shows the colour it was sent in. */
async function expectPosterJpegOf(jpeg: Buffer, colour: string) {
  const meta = await sharp(jpeg).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1080, 1080]);
  const { channels } = await sharp(jpeg).stats();
  const want = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  channels.slice(0, 3).forEach((c, i) => expect(Math.abs(c.mean - want[i]!)).toBeLessThan(3));
}

let BADGE: Buffer;
let POSTER: Buffer;
const withAssets = (db: Db, id: string) => attachBadgeAssets(db, id, { badge: BADGE, poster: POSTER }, STAFF);

const rowOf = (db: Db, id: string) => db.selectFrom("badge_orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  BADGE = await png(1080, "#123b5d");
  POSTER = await png(1080, "#e0892b");
});
afterAll(async () => {
  await smtp.close();
});

let db: Db;
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: smtp.url });
  smtp.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("submitBadgeOrder", () => {
  it("stores a pending order with the server's tier name, amount and share link, and claims the code", async () => {
    const { id } = await submit(db, {
      tierKey: "t3",
      name: "Jane Wanjiru",
      email: "Jane@Example.org",
      phone: "+254 712 345 678",
      paymentReference: " skl4q2zb7x ",
      hardCopy: "on",
      notes: "Front row, please.",
    });
    expect(id).toMatch(ID);
    const row = await rowOf(db, id);
    expect(row).toMatchObject({
      id,
      tier_key: "t3",
      tier_name: "Big Friend",
      amount: 1300,
      name: "Jane Wanjiru",
      email: "jane@example.org",
      phone: "+254 712 345 678",
      payment_reference: "SKL4Q2ZB7X",
      hard_copy: 1,
      notes: "Front row, please.",
      share_url: "http://site.test/event?utm_source=share&utm_medium=badge&utm_campaign=event_t3",
      status: "pending",
      approved_at: null,
      rejected_at: null,
      portrait_file: null,
      badge_file: null,
      poster_file: null,
    });
    expect(new Date(row.created_at).toISOString()).toBe(row.created_at);
    expect(Date.now() - Date.parse(row.created_at)).toBeLessThan(10_000);
    expect(row.asset_token.length).toBeGreaterThanOrEqual(20);
    expect(await db.selectFrom("payment_codes").selectAll().execute()).toMatchObject([
      { code: "SKL4Q2ZB7X", kind: "badge", order_id: id },
    ]);
  });

  it("a t1 order claiming amount 1 and tier name 'Champion' is stored as Friends Badge at 300", async () => {
    const { id } = await submit(db, { tierKey: "t1", tierName: "Champion", amount: 1, shareUrl: "https://evil.example/" });
    expect(await rowOf(db, id)).toMatchObject({
      tier_key: "t1",
      tier_name: "Friends Badge",
      amount: 300,
      share_url: "http://site.test/event?utm_source=share&utm_medium=badge&utm_campaign=event_t1",
    });
  });

  it("an unknown tier (bypassing the schema) is a 400 'Tier configuration missing.'", async () => {
    const bad = { ...input(), tierKey: "t9" } as unknown as ReturnType<typeof input>;
    expect(await httpError(() => submitBadgeOrder(db, bad, null))).toEqual({ status: 400, message: "Tier configuration missing." });
    expect(await count(db, "badge_orders")).toBe(0);
  });

  it.each([
    ["the same code", "SKL4Q2ZB7X"],
    ["the code in lower case", "skl4q2zb7x"],
    ["the code with spaces", " SKL4 Q2ZB 7X "],
    ["the code inside a pasted SMS", "skl4q2zb7x Confirmed. Ksh1,300.00 sent to STREET LIGHT OUTREACH on 21/11/25 at 7:02 PM."],
  ])("%s again is a 409 and nothing new is stored", async (_, again) => {
    const first = await submit(db, { paymentReference: "SKL4Q2ZB7X" });
    const portrait = await png(720, "#ffffff");
    const folders = () => storedNames("badge-orders");
    const before = await folders();
    const err = await httpError(() => submit(db, { paymentReference: again, email: "other@example.org" }, portrait));
    expect(err).toEqual({ status: 409, message: USED });
    expect(err.message).toContain("already been used");
    expect(await db.selectFrom("badge_orders").select("id").execute()).toEqual([{ id: first.id }]);
    expect(await count(db, "payment_codes")).toBe(1);
    expect(await db.selectFrom("outbox").select("to_address").execute()).toEqual([{ to_address: "jane@example.org" }]);
    // The refused order's portrait is not left on disk.
    expect(await folders()).toEqual(before);
  });

  it("a code already used by a merch order is refused too", async () => {
    await db
      .insertInto("payment_codes")
      .values({ code: "SKL4Q2ZB7X", kind: "merch", order_id: "MO-000001", created_at: new Date().toISOString() })
      .execute();
    expect(await httpError(() => submit(db, { paymentReference: "SKL4Q2ZB7X" }))).toEqual({ status: 409, message: USED });
    expect(await count(db, "badge_orders")).toBe(0);
  });

  it("emails 'we received your order' with the reference, tier, amount and code", async () => {
    const { id } = await submit(db, { tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", paymentReference: "SKL4Q2ZB7X" });
    await drainOutbox();
    expect(smtp.messages).toHaveLength(1);
    const { envelope, mail } = smtp.messages[0]!;
    expect(envelope.to).toEqual(["jane@example.org"]);
    expect(mail.subject).toBe(`We received your Big Friend confirmation (${id})`);
    expect(mail.text).toContain(`Your reference is ${id}.`);
    expect(mail.text).toContain("Tier: Big Friend · Amount: KES 1,300 · M-Pesa code: SKL4Q2ZB7X");
    expect(mail.text).toContain("pending approval");
    expect(mail.html).toContain(id);
    expect(mail.attachments).toHaveLength(0);
  });

  it("a portrait is written to the order's folder before the order is stored", async () => {
    const portrait = await processPortrait(new Uint8Array(await png(300, "#aa3355")));
    const { id } = await submit(db, {}, portrait);
    expect((await rowOf(db, id)).portrait_file).toBe("portrait.jpg");
    expect((await readStored(`badge-orders/${id}/portrait.jpg`))!.equals(portrait)).toBe(true);
    expect((await getBadgeOrder(db, id)).portraitPath).toMatch(new RegExp(`^/admin/badge-orders/${id}/portrait\\.jpg\\?t=[\\w-]+$`));
  });

  it("200 submissions at once with distinct codes: 200 orders with distinct ids", async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        submit(db, { name: `Supporter ${i}`, email: `s${i}@example.org`, paymentReference: `QB${String(i).padStart(8, "0")}` }),
      ),
    );
    const ids = results.map((r) => r.id);
    expect(ids.every((id) => ID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(200);
    const rows = await db.selectFrom("badge_orders").select(["id", "name", "payment_reference"]).execute();
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(ids));
    expect(await count(db, "payment_codes")).toBe(200);
    expect(await count(db, "outbox")).toBe(200);
  });

  it("20 submissions at once sharing one code: exactly one stored, 19 refused with 409", async () => {
    const settled = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        submit(db, { name: `Supporter ${i}`, email: `s${i}@example.org`, paymentReference: i % 2 ? "skl4q2zb7x" : "SKL4Q2ZB7X" }),
      ),
    );
    const ok = settled.filter((s) => s.status === "fulfilled");
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(DomainError);
      expect(r.reason).toMatchObject({ code: "conflict", message: USED });
    }
    expect(await count(db, "badge_orders")).toBe(1);
    expect(await count(db, "payment_codes")).toBe(1);
    expect(await count(db, "outbox")).toBe(1);
  });
});

describe("getBadgeOrder", () => {
  it("an unknown id is a 404 'Order not found.'", async () => {
    expect(await httpError(() => getBadgeOrder(db, "BO-000000"))).toEqual({ status: 404, message: "Order not found." });
  });
});

describe("status rules", () => {
  it("rejecting emails the supporter, with the staff note, and keeps the note on the order", async () => {
    const { id } = await submit(db, { name: "Amani Otieno", email: "amani@example.org" });
    const order = await setBadgeOrderStatus(db, id, "rejected", STAFF, { note: "  No such payment on our statement.  " });
    expect(order.status).toBe("rejected");
    expect(order.staffNote).toMatch(/^\[[^\]]+ EAT\] Rejected\. Note to the supporter: No such payment on our statement\.$/);
    await drainOutbox();
    const mail = smtp.messages.find((m) => m.mail.subject?.includes("was not accepted"))!.mail;
    expect(mail.subject).toBe(`Your ${order.tierName} confirmation (${id}) was not accepted`);
    expect(mail.to && "text" in mail.to ? mail.to.text : "").toBe("amani@example.org");
    expect(mail.text).toContain("A note from the team: No such payment on our statement.");
    expect(mail.replyTo?.text).toBe("hello@streetlight-outreach.org");
  });

  it("rejecting an approved order tells the supporter it is cancelled", async () => {
    const { id } = await submit(db);
    await withAssets(db, id);
    await setBadgeOrderStatus(db, id, "approved", STAFF);
    await setBadgeOrderStatus(db, id, "rejected", STAFF);
    const kinds = (await db.selectFrom("outbox").select("kind").orderBy("id").execute()).map((r) => r.kind);
    expect(kinds).toEqual(["badge.received", "badge.kit", "badge.rejected"]);
    const rejected = await db.selectFrom("outbox").selectAll().where("kind", "=", "badge.rejected").executeTakeFirstOrThrow();
    expect(rejected.text_body).toContain("was approved earlier, but our team has now cancelled it");
    expect(rejected.text_body).not.toContain("A note from the team");
  });

  it("approving without assets is a 409 'Generate assets before approving.' and nothing changes", async () => {
    const { id } = await submit(db);
    expect(await httpError(() => setBadgeOrderStatus(db, id, "approved", STAFF))).toEqual({
      status: 409,
      message: "Generate assets before approving.",
    });
    expect(await rowOf(db, id)).toMatchObject({ status: "pending", approved_at: null, delivery_outbox_id: null });
    expect(await db.selectFrom("outbox").select("kind").execute()).toEqual([{ kind: "badge.received" }]);
  });

  it("the staff screen's approval (drawKit) draws a missing badge and poster first, then approves and sends the kit, in one step", async () => {
    const { id } = await submit(db);
    const order = await setBadgeOrderStatus(db, id, "approved", STAFF, { drawKit: true });
    expect(order.status).toBe("approved");
    expect(await rowOf(db, id)).toMatchObject({ status: "approved", badge_file: "badge.png", poster_file: "poster.jpg" });
    const badge = await sharp((await readStored(`badge-orders/${id}/badge.png`))!).metadata();
    expect([badge.format, badge.width, badge.height]).toEqual(["png", 1080, 1080]);
    expect((await db.selectFrom("outbox").select("kind").orderBy("id").execute()).map((r) => r.kind)).toEqual(["badge.received", "badge.kit"]);
  }, 30_000);

  it("approving when the image files are gone from disk is a 409 too", async () => {
    const { id } = await submit(db);
    await withAssets(db, id);
    await removeStored(`badge-orders/${id}/poster.jpg`);
    expect(await httpError(() => setBadgeOrderStatus(db, id, "approved", STAFF))).toEqual({
      status: 409,
      message: "Generate assets before approving.",
    });
  });

  it("attaching assets gives the order badge and poster links", async () => {
    const { id } = await submit(db);
    const order = await withAssets(db, id);
    const token = (await rowOf(db, id)).asset_token;
    expect(order.badgePath).toBe(`/admin/badge-orders/${id}/badge.png?t=${token}`);
    expect(order.posterPath).toBe(`/admin/badge-orders/${id}/poster.jpg?t=${token}`);
    // The badge is stored baked with its Open Badges assertion's address; the poster as a JPEG of what was sent.
    expect((await readStored(`badge-orders/${id}/badge.png`))!.equals(baked(id, BADGE))).toBe(true);
    await expectPosterJpegOf((await readStored(`badge-orders/${id}/poster.jpg`))!, "#e0892b");
  });

  it("two asset uploads for one order at once (a double click) both succeed and leave whole PNGs", async () => {
    const { id } = await submit(db);
    const other = { badge: await png(1080, "#2e7d4f"), poster: await png(1080, "#6b2d5c") };
    const settled = await Promise.allSettled([withAssets(db, id), attachBadgeAssets(db, id, other, STAFF)]);
    expect(settled.map((s) => (s.status === "rejected" ? String(s.reason) : s.status))).toEqual(["fulfilled", "fulfilled"]);
    const badge = (await readStored(`badge-orders/${id}/badge.png`))!;
    expect(badge.equals(baked(id, BADGE)) || badge.equals(baked(id, other.badge))).toBe(true);
    expect((await storedNames(`badge-orders/${id}`)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("attaching assets to an unknown order is a 404 and writes nothing", async () => {
    expect(await httpError(() => withAssets(db, "BO-000000"))).toEqual({ status: 404, message: "Order not found." });
    expect((await storedNames("badge-orders/BO-000000")).length > 0).toBe(false);
  });

  it("approval with assets: approved_at set, the kit is emailed with the two 1080x1080 PNGs", async () => {
    const { id } = await submit(db, { tierKey: "t5", name: "Wanjiku", email: "wanjiku@example.org", hardCopy: true });
    await drainOutbox();
    smtp.clear();
    await withAssets(db, id);
    const before = Date.now();
    const order = await setBadgeOrderStatus(db, id, "approved", STAFF);
    expect(order.status).toBe("approved");
    expect(order.approvedAt).not.toBeNull();
    expect(Date.parse(order.approvedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(order.delivery).not.toBeNull();

    const kit = await db.selectFrom("outbox").selectAll().where("kind", "=", "badge.kit").execute();
    expect(kit).toHaveLength(1);
    expect(JSON.parse(kit[0]!.attachments)).toHaveLength(3);

    await drainOutbox();
    expect(smtp.messages).toHaveLength(1);
    const { envelope, mail } = smtp.messages[0]!;
    expect(envelope.to).toEqual(["wanjiku@example.org"]);
    expect(mail.subject).toBe("Your Champion badge and 'Will Be Attending' poster");
    expect(mail.text).toContain(id);
    expect(mail.text).toContain("KES 3,400");
    expect(mail.text).toContain("hard-copy badge");
    // The inline picture comes first in the message's MIME structure; the files by name.
    const named = (suffix: string) => mail.attachments.find((a) => a.filename === `${id}-${suffix}`)!;
    expect(mail.attachments.map((a) => [a.filename, a.contentType]).sort()).toEqual([
      [`${id}-badge.png`, "image/png"],
      [`${id}-entry-qr.png`, "image/png"],
      [`${id}-will-be-attending.jpg`, "image/jpeg"],
    ]);
    // The entry QR code: shown in the message (cid), holding a ticket for this order only.
    const qr = named("entry-qr.png");
    // Sent inline (mailparser hands the <img src="cid:…"> back as the picture's data).
    expect(qr.cid).toBeTruthy();
    expect(mail.html).toContain(`alt="Entry QR code for ${id}"`);
    expect(mail.html).toContain(`data:image/png;base64,${qr.content.toString("base64")}`);
    const scanned = await readQrFromPhoto(qr.content);
    expect(scanned).toMatch(new RegExp(`^${env().publicUrl}/admin/check-in\\?ticket=${id}\\.`));
    expect(orderOfTicket(ticketFromScan(scanned!))).toBe(id);
    expect(mail.text).toContain(`${id} (${referenceInWords(id)})`);
    const meta = await sharp(named("badge.png").content).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1080, 1080]);
    expect(named("badge.png").content.equals(baked(id, BADGE))).toBe(true);
    await expectPosterJpegOf(named("will-be-attending.jpg").content, "#e0892b");

    const delivered = await getBadgeOrder(db, id);
    expect(delivered.delivery).toMatchObject({ ok: true, detail: expect.stringMatching(/^Emailed \S/) });
  });

  it("approve again is a 409 'Order is already approved.' and sends nothing more", async () => {
    const { id } = await submit(db);
    await withAssets(db, id);
    await setBadgeOrderStatus(db, id, "approved", STAFF);
    expect(await httpError(() => setBadgeOrderStatus(db, id, "approved", STAFF))).toEqual({
      status: 409,
      message: "Order is already approved.",
    });
    expect(await db.selectFrom("outbox").select("kind").where("kind", "=", "badge.kit").execute()).toHaveLength(1);
  });

  it("two approvals at the same moment: one wins, the other is a 409, one kit is sent", async () => {
    const { id } = await submit(db);
    await withAssets(db, id);
    const settled = await Promise.allSettled([setBadgeOrderStatus(db, id, "approved", STAFF), setBadgeOrderStatus(db, id, "approved", STAFF)]);
    expect(settled.map((s) => s.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = settled.find((s): s is PromiseRejectedResult => s.status === "rejected")!;
    expect(refused.reason).toMatchObject({ code: "conflict", message: "Order is already approved." });
    expect(await db.selectFrom("outbox").select("id").where("kind", "=", "badge.kit").execute()).toHaveLength(1);
  });

  it("reject, reject again (409), then approve a rejected order that has assets", async () => {
    const { id } = await submit(db);
    const rejected = await setBadgeOrderStatus(db, id, "rejected", STAFF);
    expect(rejected.status).toBe("rejected");
    expect(rejected.approvedAt).toBeNull();
    expect((await rowOf(db, id)).rejected_at).not.toBeNull();
    expect(await httpError(() => setBadgeOrderStatus(db, id, "rejected", STAFF))).toEqual({
      status: 409,
      message: "Order is already rejected.",
    });
    // Rejected and still without assets: approving is refused for that reason.
    expect(await httpError(() => setBadgeOrderStatus(db, id, "approved", STAFF))).toEqual({
      status: 409,
      message: "Generate assets before approving.",
    });
    await withAssets(db, id);
    const approved = await setBadgeOrderStatus(db, id, "approved", STAFF);
    expect(approved.status).toBe("approved");
    expect(approved.approvedAt).not.toBeNull();
    expect((await rowOf(db, id)).rejected_at).toBeNull();
  });

  it("an approved order can be rejected", async () => {
    const { id } = await submit(db);
    await withAssets(db, id);
    await setBadgeOrderStatus(db, id, "approved", STAFF);
    expect((await setBadgeOrderStatus(db, id, "rejected", STAFF)).status).toBe("rejected");
  });

  it("status changes on an unknown order are a 404", async () => {
    for (const s of ["approved", "rejected"] as const) {
      expect(await httpError(() => setBadgeOrderStatus(db, "BO-000000", s, STAFF))).toEqual({ status: 404, message: "Order not found." });
    }
    expect(await httpError(() => resendBadgeKit(db, "BO-000000", STAFF))).toEqual({ status: 404, message: "Order not found." });
  });

  it("only approved orders can have the kit resent", async () => {
    const { id } = await submit(db);
    expect(await httpError(() => resendBadgeKit(db, id, STAFF))).toEqual({ status: 409, message: "Only approved orders can be resent." });
  });

  it("a resend racing a rejection by another staff member (another process) never sends a kit after the rejection", async () => {
    // On PostgreSQL the other staff member works through a second pool, as on another machine.
    const url = env().databaseUrl;
    const other = url ? openDatabase(url, { poolSize: 2 }) : db;
    try {
      for (let round = 0; round < 12; round++) {
        const { id } = await submit(db);
        await withAssets(db, id);
        await setBadgeOrderStatus(db, id, "approved", STAFF);
        // The rejection starts first or second by turns, so each reaches the other mid-way.
        const reject = () => setBadgeOrderStatus(other, id, "rejected", STAFF, { note: "Paid twice" });
        const resend = () => resendBadgeKit(db, id, STAFF);
        const [resent] = round % 2 ? await Promise.allSettled([resend(), reject()]) : await Promise.allSettled([reject(), resend()]).then(([a, b]) => [b, a] as const);
        const mails = await db.selectFrom("outbox").select(["id", "kind"]).where("to_address", "=", "jane@example.org").orderBy("id").execute();
        const kinds = mails.slice(-3).map((m) => m.kind);
        // Either the resend came first (a second kit, then the rejection) or it saw the rejection (409).
        if (resent.status === "fulfilled") expect(kinds).toEqual(["badge.kit", "badge.kit", "badge.rejected"]);
        else expect(kinds.slice(-2)).toEqual(["badge.kit", "badge.rejected"]);
        expect((await rowOf(db, id)).status).toBe("rejected");
        await db.deleteFrom("outbox").execute();
      }
    } finally {
      if (other !== db) await other.destroy();
    }
  });
});

describe("kit delivery", () => {
  it("with the mail server down, delivery is ok:false with the error; a resend to a live server makes it ok:true", async () => {
    const port = await closedPort();
    db = await freshApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { id } = await submit(db, { email: "kit@example.org" });
    await withAssets(db, id);
    await setBadgeOrderStatus(db, id, "approved", STAFF);
    await drainOutbox();

    const failing = await getBadgeOrder(db, id);
    expect(failing.delivery?.ok).toBe(false);
    expect(failing.delivery?.detail).toMatch(/ECONNREFUSED/);
    expect(failing.delivery?.detail).toMatch(new RegExp(`retrying.*attempt 1 of ${MAX_ATTEMPTS}`));
    const [listed] = await listBadgeOrders(db, {});
    expect(listed!.delivery).toEqual(failing.delivery);

    const live = await startSmtpReceiver(port);
    try {
      const resent = await resendBadgeKit(db, id, STAFF);
      expect(resent.status).toBe("approved");
      await drainOutbox();
      // Only the new message was due: the first one waits for its retry.
      expect(live.messages).toHaveLength(1);
      expect(live.messages[0]!.envelope.to).toEqual(["kit@example.org"]);
      expect(live.messages[0]!.mail.attachments.map((a) => a.contentType).sort()).toEqual(["image/jpeg", "image/png", "image/png"]);
      const after = await getBadgeOrder(db, id);
      expect(after.delivery).toMatchObject({ ok: true, detail: expect.stringMatching(/^Emailed \S/) });
      const [listedAfter] = await listBadgeOrders(db, {});
      expect(listedAfter!.delivery).toEqual(after.delivery);
    } finally {
      await live.close();
    }
  });

  it("after the last retry the delivery is ok:false with the error alone", async () => {
    const port = await closedPort();
    db = await freshApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { id } = await submit(db);
    await withAssets(db, id);
    await setBadgeOrderStatus(db, id, "approved", STAFF);
    const outboxId = (await rowOf(db, id)).delivery_outbox_id!;
    await drainOutbox();
    expect((await getBadgeOrder(db, id)).delivery?.detail).toMatch(/retrying/);
    // Skip the waits and the middle attempts: the next one is the last.
    await db
      .updateTable("outbox")
      .set({ attempts: MAX_ATTEMPTS - 1, next_attempt_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", outboxId)
      .execute();
    await drainOutbox();
    expect((await db.selectFrom("outbox").select("status").where("id", "=", outboxId).executeTakeFirstOrThrow()).status).toBe("failed");
    const order = await getBadgeOrder(db, id);
    expect(order.delivery?.ok).toBe(false);
    expect(order.delivery?.detail).toMatch(/ECONNREFUSED/);
    expect(order.delivery?.detail).not.toContain("retrying");
  });
});

describe("orders stored before pictures were kept as JPEG", () => {
  /** An order as it was stored then: portrait.png, badge.png and poster.png, named by its row. */
  async function olderOrder() {
    const { id } = await submit(db, { tierKey: "t3", name: "Old Order" });
    await putBlob(db, `badge-orders/${id}/portrait.png`, await png(720, "#aa3355"));
    await putBlob(db, `badge-orders/${id}/badge.png`, baked(id, BADGE));
    await putBlob(db, `badge-orders/${id}/poster.png`, POSTER);
    await db.updateTable("badge_orders").set({ portrait_file: "portrait.png", badge_file: "badge.png", poster_file: "poster.png" }).where("id", "=", id).execute();
    return id;
  }

  it("keep their PNG portrait, badge and poster: linked, read and mailed as they are", async () => {
    const id = await olderOrder();
    const order = await getBadgeOrder(db, id);
    expect(order.portraitPath).toMatch(new RegExp(`^/admin/badge-orders/${id}/portrait\\.png\\?t=`));
    expect(order.posterPath).toMatch(new RegExp(`^/admin/badge-orders/${id}/poster\\.png\\?t=`));
    expect((await readOrderAsset(db, id, "portrait", null, true)).equals(await png(720, "#aa3355"))).toBe(true);
    expect((await readOrderAsset(db, id, "poster", null, true)).equals(POSTER)).toBe(true);
    expect((await readPortrait(db, id))!.equals(await png(720, "#aa3355"))).toBe(true);
    await drainOutbox();
    smtp.clear();
    await setBadgeOrderStatus(db, id, "approved", STAFF);
    await drainOutbox();
    const { mail } = smtp.messages[0]!;
    expect(mail.attachments.map((a) => [a.filename, a.contentType]).sort()).toEqual([
      [`${id}-badge.png`, "image/png"],
      [`${id}-entry-qr.png`, "image/png"],
      [`${id}-will-be-attending.png`, "image/png"],
    ]);
    expect(mail.attachments.find((a) => a.filename === `${id}-will-be-attending.png`)!.content.equals(POSTER)).toBe(true);
  });

  it("drawn again, the kit is kept the new way and the old PNG portrait is still read", async () => {
    const id = await olderOrder();
    await generateBadgeAssets(db, id, STAFF);
    expect(await rowOf(db, id)).toMatchObject({ portrait_file: "portrait.png", badge_file: "badge.png", poster_file: "poster.jpg" });
    expect((await sharp((await readStored(`badge-orders/${id}/poster.jpg`))!).metadata()).format).toBe("jpeg");
  }, 30_000);
});

describe("generateBadgeAssets (the real renderer)", () => {
  it("renders the badge (PNG) and poster (JPEG), 1080x1080, and attaches them", async () => {
    const portrait = await processPortrait(new Uint8Array(await png(400, "#aa3355")));
    const { id } = await submit(db, { tierKey: "t4", name: "Achieng Odhiambo" }, portrait);
    const order = await generateBadgeAssets(db, id, STAFF);
    expect(order.badgePath).toMatch(new RegExp(`^/admin/badge-orders/${id}/badge\\.png\\?t=`));
    expect(order.posterPath).toMatch(new RegExp(`^/admin/badge-orders/${id}/poster\\.jpg\\?t=`));
    const badge = (await readStored(`badge-orders/${id}/badge.png`))!;
    const poster = (await readStored(`badge-orders/${id}/poster.jpg`))!;
    for (const [file, format] of [[badge, "png"], [poster, "jpeg"]] as const) {
      const meta = await sharp(file).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, 1080, 1080]);
    }
    expect(badge.equals(poster)).toBe(false);
    expect((await setBadgeOrderStatus(db, id, "approved", STAFF)).status).toBe("approved");
  });

  it("an unknown order is a 404", async () => {
    expect(await httpError(() => generateBadgeAssets(db, "BO-000000", STAFF))).toEqual({ status: 404, message: "Order not found." });
  });
});

describe("the activity log (each staff action writes its own entry)", () => {
  it("generate, approve, resend and reject each log once, with the actor and the order", async () => {
    const { id } = await submit(db);
    await generateBadgeAssets(db, id, STAFF);
    await setBadgeOrderStatus(db, id, "approved", STAFF);
    await resendBadgeKit(db, id, STAFF);
    await setBadgeOrderStatus(db, id, "rejected", staff("198.51.100.4"));
    const log = (await listActivity(db, { limit: 10 })).filter((e) => e.meta.id === id);
    expect(log.map((e) => [e.type, e.message, e.actorIp])).toEqual([
      ["badge_orders.generate_assets", `Badge kit generated for ${id}`, "203.0.113.9"],
      ["badge_orders.approve", `Order ${id} approved`, "203.0.113.9"],
      ["badge_orders.resend", `Badge kit resent for ${id}`, "203.0.113.9"],
      ["badge_orders.reject", `Order ${id} rejected`, "198.51.100.4"],
    ]);
  });

  it("staff-sent assets log as attached; an automatic step is logged as the system, with its reason", async () => {
    const { id } = await submit(db);
    await withAssets(db, id);
    await setBadgeOrderStatus(db, id, "approved", system("payment confirmed"));
    const log = (await listActivity(db, { limit: 10 })).filter((e) => e.meta.id === id);
    expect(log.map((e) => [e.type, e.actorIp, e.meta.automatic])).toEqual([
      ["badge_orders.assets", "203.0.113.9", undefined],
      ["badge_orders.approve", "system", "payment confirmed"],
    ]);
  });

  it("a refused action logs nothing", async () => {
    const { id } = await submit(db);
    await expect(setBadgeOrderStatus(db, id, "approved", STAFF)).rejects.toBeInstanceOf(DomainError);
    await expect(resendBadgeKit(db, id, STAFF)).rejects.toBeInstanceOf(DomainError);
    expect((await listActivity(db, { limit: 10 })).filter((e) => e.meta.id === id)).toEqual([]);
  });
});

describe("listBadgeOrders", () => {
  /** Four orders created a minute apart (A oldest), B approved, C rejected. */
  async function seed() {
    const a = await submit(db, { tierKey: "t1", name: "Amina Otieno", email: "amina@example.org", paymentReference: "AMN1234567" });
    const b = await submit(db, { tierKey: "t3", name: "Brian Kamau", email: "brian@kamau.co.ke", paymentReference: "BRN7654321" });
    const c = await submit(db, { tierKey: "t5", name: "Chebet 100% Sure_Thing", email: "chebet@example.org", paymentReference: "CHB1112223" });
    const d = await submit(db, { tierKey: "t2", name: "Dan Back\\slash", email: "dan@example.org", paymentReference: "DAN9998887" });
    const ids = { a: a.id, b: b.id, c: c.id, d: d.id };
    const minutes = { a: 0, b: 1, c: 2, d: 3 };
    for (const [k, id] of Object.entries(ids)) {
      const at = new Date(Date.UTC(2026, 0, 1, 10, minutes[k as keyof typeof minutes])).toISOString();
      await db.updateTable("badge_orders").set({ created_at: at }).where("id", "=", id).execute();
    }
    await withAssets(db, ids.b);
    await setBadgeOrderStatus(db, ids.b, "approved", STAFF);
    await setBadgeOrderStatus(db, ids.c, "rejected", STAFF);
    return ids;
  }
  const idsOf = async (opts: Parameters<typeof listBadgeOrders>[1]) => (await listBadgeOrders(db, opts)).map((o) => o.id);

  it("lists newest first, filters by status", async () => {
    const { a, b, c, d } = await seed();
    expect(await idsOf({})).toEqual([d, c, b, a]);
    expect(await idsOf({ status: "pending" })).toEqual([d, a]);
    expect(await idsOf({ status: "approved" })).toEqual([b]);
    expect(await idsOf({ status: "rejected" })).toEqual([c]);
    expect(await idsOf({ limit: 2 })).toEqual([d, c]);
  });

  it("items read the same as getBadgeOrder, delivery included", async () => {
    await seed();
    await drainOutbox();
    for (const item of await listBadgeOrders(db, {})) expect(item).toEqual(await getBadgeOrder(db, item.id));
  });

  it("q matches name, email, payment code, tier name and key, and order id, ignoring case", async () => {
    const { a, b, c, d } = await seed();
    expect(await idsOf({ q: "AMINA otieno" })).toEqual([a]);
    expect(await idsOf({ q: "KAMAU.CO" })).toEqual([b]);
    expect(await idsOf({ q: "chb1112223" })).toEqual([c]);
    expect(await idsOf({ q: "big FRIEND" })).toEqual([b]);
    expect(await idsOf({ q: "Helping" })).toEqual([d]);
    // The tier key t5 is c's; a random order id may hold "T5" too (BO-DNAT55 once did), and ids match as well.
    expect(await idsOf({ q: "T5" })).toEqual([d, c, b, a].filter((id) => id === c || id.includes("T5")));
    expect(await idsOf({ q: a.toLowerCase() })).toEqual([a]);
    expect(await idsOf({ q: d.slice(3) })).toEqual([d]);
    expect(await idsOf({ q: "example.org" })).toEqual([d, c, a]);
    expect(await idsOf({ q: "nobody-here" })).toEqual([]);
    expect(await idsOf({ q: "   " })).toEqual([d, c, b, a]);
  });

  it("q with a status filters by both", async () => {
    const { a } = await seed();
    expect(await idsOf({ q: "amina", status: "pending" })).toEqual([a]);
    expect(await idsOf({ q: "amina", status: "approved" })).toEqual([]);
  });

  it("'%', '_' and '\\' in q are literal characters", async () => {
    const { c, d } = await seed();
    expect(await idsOf({ q: "%" })).toEqual([c]);
    expect(await idsOf({ q: "_" })).toEqual([c]);
    expect(await idsOf({ q: "100% sure_thing" })).toEqual([c]);
    expect(await idsOf({ q: "a%o" })).toEqual([]);
    expect(await idsOf({ q: "b_ian" })).toEqual([]);
    expect(await idsOf({ q: "\\" })).toEqual([d]);
  });
});

describe("the event's goal bar (eventProgress, GET /api/event_progress.php)", () => {
  it("counts approved orders only, per tier and in KES; a rejection takes one back; approving forgets the cached event page", async () => {
    const { eventProgress } = await import("./progress.server");
    const { loader } = await import("~/routes/api/event-progress");
    const { cachedDocument, storePage } = await import("~/lib/http/page-cache.server");
    const a = await submit(db, { tierKey: "t3" });
    const b = await submit(db, { tierKey: "t3" });
    const c = await submit(db, { tierKey: "t1" });
    await submit(db, { tierKey: "t5" }); // stays pending
    for (const o of [a, c]) {
      await withAssets(db, o.id);
      await setBadgeOrderStatus(db, o.id, "approved", STAFF);
    }
    await withAssets(db, b.id);
    let progress = await eventProgress(db);
    expect(progress.target).toBe(468_500);
    expect(progress.raised).toBe(1300 + 300);
    expect(progress.tiers.map((t) => [t.key, t.supporters, t.goal])).toEqual([
      ["t1", 1, 34],
      ["t2", 0, 21],
      ["t3", 1, 13],
      ["t4", 0, 8],
      ["t5", 0, 5],
    ]);

    // The page showing the old figures is forgotten the moment the next order is approved.
    storePage("/event", { html: "<p>old figures</p>", headers: [], view: { page: "event.badges", path: "/event" }, seconds: 300 });
    expect(cachedDocument("/event", new Headers())).toBeDefined();
    await setBadgeOrderStatus(db, b.id, "approved", STAFF);
    expect(cachedDocument("/event", new Headers())).toBeUndefined();
    expect((await eventProgress(db)).tiers.find((t) => t.key === "t3")!.supporters).toBe(2);

    await setBadgeOrderStatus(db, a.id, "rejected", STAFF, { note: "Payment not found" });
    progress = await eventProgress(db);
    expect(progress.raised).toBe(1300 + 300);
    expect(progress.tiers.find((t) => t.key === "t3")!.supporters).toBe(1);

    const res = await loader({ context: { db }, request: new Request("http://localhost/api/event_progress.php"), url: new URL("http://localhost/api/event_progress.php"), params: {} } as never);
    expect(res.headers.get("cache-control")).toBe("public, max-age=5");
    const body = await res.json();
    expect(body).toEqual({ ok: true, ...progress });
    // Figures only: nothing of any supporter.
    expect(JSON.stringify(body)).not.toMatch(/Jane|example\.org|QA\d{8}|BO-/);
  });
});

describe("the supporter wall", () => {
  const approve = async (id: string) => {
    await withAssets(db, id);
    await setBadgeOrderStatus(db, id, "approved", STAFF);
  };

  it("lists approved supporters who said yes, newest approval first, by their chosen name or first name, and nothing private", async () => {
    const { listWall } = await import("./wall.server");
    const silent = await submit(db, { name: "Silent Supporter", email: "silent@example.org", phone: "0712345678" });
    const jane = await submit(db, { name: "Jane Wanjiru", email: "jane@example.org", phone: "0712345678", showOnWall: "on", tierKey: "t1" });
    const otieno = await submit(db, { name: "Otieno Odhiambo", showOnWall: "on", wallName: "The Otienos", tierKey: "t5" });
    const pending = await submit(db, { name: "Pending Person", showOnWall: "on" });
    const rejected = await submit(db, { name: "Rejected Person", showOnWall: "on" });
    for (const o of [silent, jane, otieno]) await approve(o.id);
    await setBadgeOrderStatus(db, rejected.id, "rejected", STAFF, { note: "No such payment" });
    expect(pending.id).toMatch(ID);

    const wall = await listWall(db);
    expect(wall).toEqual([
      { name: "The Otienos", tierKey: "t5", tierName: "Champion", portrait: null },
      { name: "Jane", tierKey: "t1", tierName: "Friends Badge", portrait: null },
    ]);
    const text = JSON.stringify(wall);
    for (const secret of ["example.org", "0712345678", "QA", "BO-", "Wanjiru", "Silent", "Pending", "Rejected"]) expect(text).not.toContain(secret);
    expect((await getBadgeOrder(db, jane.id)).wall).toEqual({ optIn: true, name: "Jane", portrait: false, hidden: false });
  });

  it("shows a portrait only to those who said yes to it too, small, and not once hidden; staff hiding is logged", async () => {
    const { listWall, setWallHidden, wallPortrait } = await import("./wall.server");
    const portrait = await processPortrait(await png(900, "#e0892b"));
    const both = await submitBadgeOrder(db, input({ name: "Amina Yusuf", showOnWall: "on", wallPortrait: "on" }), portrait);
    const nameOnly = await submitBadgeOrder(db, input({ name: "Brian Kip", showOnWall: "on" }), portrait);
    await approve(both.id);
    await approve(nameOnly.id);
    const wall = await listWall(db);
    const withPortrait = wall.find((e) => e.name === "Amina")!;
    expect(wall.find((e) => e.name === "Brian")!.portrait).toBeNull();
    expect(withPortrait.portrait).toMatch(/^\/event\/supporters\/[A-Za-z0-9_-]{24}\.webp$/);
    const key = /supporters\/(.+)\.webp$/.exec(withPortrait.portrait!)![1]!;
    const bytes = (await wallPortrait(db, key))!;
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "webp", width: 160, height: 160 });
    expect(await wallPortrait(db, "../../site.db")).toBeNull();
    expect(await wallPortrait(db, "A".repeat(24))).toBeNull();

    await setWallHidden(db, both.id, true, STAFF);
    expect((await listWall(db)).map((e) => e.name)).toEqual(["Brian"]);
    expect(await wallPortrait(db, key)).toBeNull();
    expect((await listActivity(db, { limit: 10, type: "badge_orders.wall_hide" })).map((a) => a.message)).toContain(`Order ${both.id} hidden from the supporter wall`);
    await setWallHidden(db, both.id, false, STAFF);
    expect((await listWall(db)).map((e) => e.name).sort()).toEqual(["Amina", "Brian"]);
  });

  it("a name for the wall with other characters, or too long, is refused with the reason", () => {
    const msg = "The name for the wall may have letters, spaces, apostrophes and hyphens (at most 40).";
    for (const wallName of ["<script>", "Jane 👍", "x".repeat(41), "jane@example.org"]) {
      const r = BadgeOrderSchema.safeParse({ tierKey: "t1", name: "Jane Wanjiru", email: "j@example.org", paymentReference: "SKL4Q2ZB7X", showOnWall: "on", wallName });
      expect(r.success, wallName).toBe(false);
      expect(r.error!.issues[0]!.message).toBe(msg);
    }
    expect(BadgeOrderSchema.parse({ tierKey: "t1", name: "Jane", email: "j@example.org", paymentReference: "SKL4Q2ZB7X", wallName: " Mama Njeri-O'Brien " }).wallName).toBe("Mama Njeri-O'Brien");
  });
});
