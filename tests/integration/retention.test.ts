import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { erasePerson, findPerson, keepApplication } from "~/features/people/people.server";
import { drainOutbox, outboxDir } from "~/lib/mail/email.server";
import { subscribe, unsubscribe } from "~/features/newsletter/newsletter.server";
import { importSubscriber } from "~/features/newsletter/newsletter-import.server";
import { submitApplication } from "~/features/applications/applications.server";
import { ApplicationSchema } from "~/features/applications/applications.schema";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { attachBadgeAssets, setBadgeOrderStatus, submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { CheckoutSchema } from "~/features/merch/merch.schema";
import { saveCatalogue, submitMerchOrder } from "~/features/merch/merch.server";
import { FALLBACK_CATALOGUE } from "~/features/merch/merch";
import { changeMerchOrderStatus } from "~/features/reconciliation/orders.server";
import { isForgottenAddress, retentionRules, retentionStatus, runRetention } from "~/features/people/retention.server";
import { staff } from "~/lib/core/actor";
import { hasBlob } from "~/lib/db/blob-store.server";
import type { Db } from "~/lib/db/db.server";
import { plainKitPng } from "../support/kit-png";
import { freshApp } from "../support/reset";

const DAY = 86_400_000;
let db: Db;
beforeEach(async () => {
  db = await freshApp();
});

const today = new Date();
const at = (days: number) => new Date(today.getTime() + days * DAY);

async function everything() {
  // The event is today as Nairobi's calendar has it: the rule reads the event as over at 23:59:59
  // Nairobi time, so from 21:00 UTC on, the UTC date would be a day that has already ended.
  const nairobiToday = new Date(today.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);
  await db.updateTable("event_record").set({ date: nairobiToday }).execute();
  await subscribe(db, { email: "gone@example.org", source: "footer" });
  await subscribe(db, { email: "stays@example.org", source: "footer" });
  const token = (await db.selectFrom("subscribers").select("token").where("email", "=", "gone@example.org").executeTakeFirstOrThrow()).token;
  await unsubscribe(db, token);
  await submitApplication(db, ApplicationSchema.parse({ name: "Old Applicant", email: "old@example.org", phone: "0711000000", role: "DevOps" }));
  await submitApplication(db, ApplicationSchema.parse({ name: "Kept Applicant", email: "kept@example.org", phone: "0711000001", role: "DevOps" }));
  await db.updateTable("applications").set({ kept: 1 }).where("email", "=", "kept@example.org").execute();
  const badge = await submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t3", name: "Wairimu Kamau", email: "w@example.org", phone: "0712 000 111", paymentReference: "SK12345678" }), await plainKitPng());
  await attachBadgeAssets(db, badge.id, { badge: await plainKitPng(), poster: await plainKitPng() }, staff("10.0.0.42"));
  await setBadgeOrderStatus(db, badge.id, "approved", staff("10.0.0.42"), { beforeApprove: async () => {} });
  await saveCatalogue(db, FALLBACK_CATALOGUE);
  const merch = await submitMerchOrder(
    db,
    CheckoutSchema.parse({ customerName: "Otieno Baraka", customerEmail: "o@example.org", customerPhone: "0722 000 222", notes: "", paymentReference: "SK87654321" }),
    [{ itemId: "SL-TOTE", color: null, size: "One size", quantity: 1 }],
  );
  await changeMerchOrderStatus(db, { id: merch.id, status: "approved", notes: "", paymentChecked: true }, staff("10.0.0.42"));
  await db
    .insertInto("received_payments")
    .values({ code: "SK12345678", amount: 1300, paid_at: today.toISOString(), payer_name: "WAIRIMU KAMAU", payer_phone: "254712000111", account_ref: badge.id, shortcode: "880100", source: "callback", raw: '{"FirstName":"WAIRIMU","MSISDN":"254712000111"}', received_at: today.toISOString(), odd_parts: "" })
    .execute();
  // Every message written first (no mail worker left to write one mid-test), then all called sent today.
  await drainOutbox();
  await db.updateTable("outbox").set({ status: "sent", sent_at: today.toISOString() }).execute();
  return { badgeId: badge.id, merchId: merch.id };
}

const state = async (p: { badgeId: string; merchId: string }) => ({
  subscribers: (await db.selectFrom("subscribers").select("email").orderBy("email").execute()).map((r) => r.email),
  applications: (await db.selectFrom("applications").select("email").orderBy("email").execute()).map((r) => r.email),
  mailBodies: (await db.selectFrom("outbox").select("text_body").where("text_body", "!=", "").execute()).length,
  mails: (await db.selectFrom("outbox").select("id").where("status", "in", ["sent", "written"]).execute()).length,
  portrait: await hasBlob(db, `badge-orders/${p.badgeId}/portrait.jpg`),
  kit: await hasBlob(db, `badge-orders/${p.badgeId}/badge.png`),
  badge: await db.selectFrom("badge_orders").select(["phone", "amount", "status", "portrait_file"]).where("id", "=", p.badgeId).executeTakeFirstOrThrow(),
  merch: await db.selectFrom("merch_orders").select(["customer_phone", "total", "status"]).where("id", "=", p.merchId).executeTakeFirstOrThrow(),
  payment: await db.selectFrom("received_payments").select(["code", "amount", "payer_name", "payer_phone", "raw"]).executeTakeFirstOrThrow(),
});

describe("mail written to the outbox folder (no SMTP_URL)", () => {
  const files = () => (fs.existsSync(outboxDir()) ? fs.readdirSync(outboxDir()).filter((f) => f.endsWith(".eml")) : []);
  const holding = (text: string) => files().filter((f) => fs.readFileSync(path.join(outboxDir(), f), "utf8").includes(text));

  it("its .eml file goes with the body after the mail period, and with the person on erasure", async () => {
    await subscribe(db, { email: "folder-old@example.org", source: "footer" });
    await drainOutbox();
    expect(holding("folder-old@example.org")).toHaveLength(1);
    expect(await db.selectFrom("outbox").select("status").where("to_address", "=", "folder-old@example.org").executeTakeFirstOrThrow()).toEqual({ status: "written" });
    const done = await runRetention(db, at(31));
    expect(done.mail_bodies).toBeGreaterThan(0);
    expect(holding("folder-old@example.org")).toHaveLength(0);
    expect((await db.selectFrom("outbox").select("text_body").where("to_address", "=", "folder-old@example.org").executeTakeFirstOrThrow()).text_body).toBe("");

    await subscribe(db, { email: "folder-erased@example.org", source: "footer" });
    await subscribe(db, { email: "folder-stays@example.org", source: "footer" });
    await drainOutbox();
    expect(holding("folder-erased@example.org")).toHaveLength(1);
    await erasePerson(db, "folder-erased@example.org", staff("10.0.0.42"), "test");
    expect(holding("folder-erased@example.org")).toHaveLength(0);
    expect(holding("folder-stays@example.org")).toHaveLength(1);
  });
});

describe("applications staff keep", () => {
  it("stay past the applications' period until staff stop keeping them; the log names no applicant", async () => {
    await submitApplication(db, ApplicationSchema.parse({ name: "Kept Applicant", email: "keep-me@example.org", role: "DevOps", consent: "yes" }));
    const { id } = await db.selectFrom("applications").select("id").where("email", "=", "keep-me@example.org").executeTakeFirstOrThrow();
    const found = await findPerson(db, "keep-me@example.org");
    expect(found.holdings.find((h) => h.table === "applications")?.application).toEqual({ id, kept: false });
    await keepApplication(db, id, true, staff("10.0.0.42"));
    expect((await findPerson(db, "keep-me@example.org")).holdings.find((h) => h.table === "applications")?.application).toEqual({ id, kept: true });
    await runRetention(db, at(731));
    expect(await db.selectFrom("applications").select("id").where("id", "=", id).execute()).toHaveLength(1);
    await keepApplication(db, id, false, staff("10.0.0.42"));
    await runRetention(db, at(732));
    expect(await db.selectFrom("applications").select("id").where("id", "=", id).execute()).toHaveLength(0);
    await expect(keepApplication(db, id, true, staff("10.0.0.42"))).rejects.toMatchObject({ code: "not_found" });
    expect(JSON.stringify(await db.selectFrom("activity").selectAll().where("type", "=", "people.keep").execute())).not.toContain("keep-me@");
  });
});

describe("retention rules", () => {
  it("have defaults, and each period can be set in configuration", () => {
    expect(retentionRules({}).map((r) => [r.key, r.days])).toEqual([
      ["kit_files", 90],
      ["payer_details", 90],
      ["mail_bodies", 30],
      ["unsubscribed", 30],
      ["applications", 730],
    ]);
    expect(retentionRules({ RETENTION_MAIL_DAYS: "7", RETENTION_KIT_DAYS: "nonsense" }).map((r) => r.days)).toEqual([90, 90, 7, 30, 730]);
  });

  it("as the clock passes each period, remove what it names and keep the rest", async () => {
    const p = await everything();
    const start = await state(p);
    expect(start).toMatchObject({ subscribers: ["gone@example.org", "stays@example.org"], portrait: true, kit: true, badge: { phone: "0712 000 111" } });
    expect(start.mailBodies).toBeGreaterThan(3);

    // 29 days on: nothing is due.
    expect(Object.values(await runRetention(db, at(29))).every((n) => n === 0)).toBe(true);
    expect(await state(p)).toEqual(start);

    // 31 days on: sent mail bodies and the unsubscribed address go (its hash stays).
    const month = await runRetention(db, at(31));
    expect(month).toMatchObject({ mail_bodies: start.mails, unsubscribed: 1, kit_files: 0, payer_details: 0, applications: 0 });
    const s31 = await state(p);
    expect(s31).toMatchObject({ subscribers: ["stays@example.org"], mailBodies: 0, mails: start.mails, portrait: true, badge: { phone: "0712 000 111" } });
    expect(await isForgottenAddress(db, "GONE@example.org")).toBe(true);
    expect(await isForgottenAddress(db, "stays@example.org")).toBe(false);
    expect(JSON.stringify(await db.selectFrom("forgotten_addresses").selectAll().execute())).not.toContain("gone@");
    // An import of the old site's list does not add the forgotten address again.
    expect(await importSubscriber(db, { email: "gone@example.org", source: "legacy", status: "active", createdAt: today.toISOString() })).toBe("exists");
    expect((await state(p)).subscribers).toEqual(["stays@example.org"]);

    // 91 days on: portraits and kits, typed phones and payers' details go; the accounts stay.
    const quarter = await runRetention(db, at(91));
    expect(quarter.kit_files).toBe(1);
    expect(quarter.payer_details).toBeGreaterThanOrEqual(3);
    const s91 = await state(p);
    expect(s91).toMatchObject({
      portrait: false,
      kit: false,
      badge: { phone: "", amount: 1300, status: "approved", portrait_file: null },
      merch: { customer_phone: "", total: start.merch.total, status: "approved" },
      payment: { code: "SK12345678", amount: 1300, payer_name: "", payer_phone: "", raw: "{}" },
      applications: ["kept@example.org", "old@example.org"],
    });

    // Two years on: applications go, unless staff kept one.
    expect((await runRetention(db, at(731))).applications).toBe(1);
    expect((await state(p)).applications).toEqual(["kept@example.org"]);

    // The staff screen's figures: each rule, when it last ran and what it removed.
    const status = await retentionStatus(db);
    expect(status.map((s) => [s.key, s.removed])).toEqual([
      ["kit_files", 0],
      ["payer_details", 0],
      ["mail_bodies", 0],
      ["unsubscribed", 0],
      ["applications", 1],
    ]);
    expect(status.every((s) => s.ranAt === at(731).toISOString())).toBe(true);
  });
});
