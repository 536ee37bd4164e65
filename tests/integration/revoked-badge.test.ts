import { beforeEach, describe, expect, it } from "vitest";
import { staff } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { cachedDocument, clearPageCache, storePage } from "~/lib/http/page-cache.server";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { readOrderAsset, submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { attachBadgeAssets, listBadgeOrders, resendBadgeKit, setBadgeOrderStatus } from "~/features/reconciliation/orders.server";
import { doorEntryOf, findAtDoor, hardCopyList } from "~/features/event-badges/check-in.server";
import { eventProgress } from "~/features/event-badges/progress.server";
import { queueEventReminders } from "~/features/event-badges/reminders.server";
import { saveEvent } from "~/features/event-badges/event.server";
import { EventSchema } from "~/features/event-badges/event.schema";
import { listWall, wallPortrait } from "~/features/event-badges/wall.server";
import { revokeSupporterBadge } from "~/features/open-badges/open-badges.server";
import { orderByToken } from "~/features/reconciliation/order-status.server";
import { foundByStatus } from "~/features/event-badges/admin/badge-orders-screen";
import { plainKitPng } from "../support/kit-png";
import { freshApp } from "../support/reset";

/**
 * A supporter badge staff revoked (Open Badges: revokeSupporterBadge) is an approved order whose
 * badge_revoked_at is set. It no longer counts anywhere the badge would: the supporter wall and
 * its portraits, the goal bar, the door's count, the day-before reminder, the kit's downloads and
 * its resending; the order page says what happened; the door and the badge table see it marked.
 */
const STAFF = staff("203.0.113.9");
let codes = 0;
const nextCode = () => `QR${String(++codes).padStart(8, "0")}`;

let db: Db;
beforeEach(async () => {
  db = await freshApp();
  clearPageCache();
});

async function approved(fields: Record<string, unknown> = {}) {
  const input = BadgeOrderSchema.parse({ tierKey: "t3", name: "Mercy Atieno", email: "mercy@example.org", paymentReference: nextCode(), ...fields });
  const png = await plainKitPng();
  const { id } = await submitBadgeOrder(db, input, input.showOnWall ? png : null);
  await attachBadgeAssets(db, id, { badge: png, poster: png }, STAFF);
  await setBadgeOrderStatus(db, id, "approved", STAFF, { paymentChecked: true });
  return id;
}

const tokenOf = async (id: string) => (await db.selectFrom("badge_orders").select("asset_token").where("id", "=", id).executeTakeFirstOrThrow()).asset_token;
const wallKeyOf = async (id: string) => (await db.selectFrom("badge_orders").select("wall_key").where("id", "=", id).executeTakeFirstOrThrow()).wall_key!;

describe("a revoked supporter badge", () => {
  it("leaves the supporter wall (and its portrait) and the goal bar; the cached /event pages are forgotten at once", async () => {
    const mercy = await approved({ showOnWall: true, wallName: "Mercy A", wallPortrait: true, hardCopy: true });
    await approved({ name: "Samuel Kip", email: "samuel@example.org", showOnWall: true, wallName: "Samuel" });
    expect((await listWall(db)).map((w) => w.name)).toEqual(["Samuel", "Mercy A"]);
    expect(await wallPortrait(db, await wallKeyOf(mercy))).not.toBeNull();
    const before = await eventProgress(db);
    expect(before.raised).toBe(2600);
    expect(before.tiers.find((t) => t.key === "t3")!.supporters).toBe(2);

    for (const path of ["/event", "/event/supporters", "/badges"]) storePage(path, { html: path, headers: [], view: { page: "x", path }, seconds: 300 });
    await revokeSupporterBadge(db, mercy, "Refunded", STAFF);
    expect(cachedDocument("/event/supporters", new Headers())).toBeUndefined();
    expect(cachedDocument("/event", new Headers())).toBeUndefined();

    expect((await listWall(db)).map((w) => w.name)).toEqual(["Samuel"]);
    expect(await wallPortrait(db, await wallKeyOf(mercy))).toBeNull();
    const after = await eventProgress(db);
    expect(after.raised).toBe(1300);
    expect(after.tiers.find((t) => t.key === "t3")!.supporters).toBe(1);
  });

  it("is refused at the door and marked on the badge table, not counted there", async () => {
    const mercy = await approved({ hardCopy: true });
    const kept = await approved({ name: "Mercy Wambui", email: "wambui@example.org", hardCopy: true });
    await revokeSupporterBadge(db, mercy, "Refunded", STAFF);
    expect(await doorEntryOf(db, mercy)).toMatchObject({ id: mercy, refused: { kind: "revoked", reason: "Refunded" } });
    expect(await doorEntryOf(db, kept)).toMatchObject({ id: kept, refused: null });
    // A name search finds both; the one who may come in first.
    expect((await findAtDoor(db, "mercy")).map((e) => [e.id, e.refused?.kind ?? null])).toEqual([
      [kept, null],
      [mercy, "revoked"],
    ]);
    // A reference typed with a space finds it too.
    expect((await findAtDoor(db, `${mercy.slice(0, 6)} ${mercy.slice(6)}`)).map((e) => e.id)).toEqual([mercy]);
    const [group] = await hardCopyList(db);
    expect(group!.people.map((p) => [p.id, !!p.refused])).toEqual([
      [mercy, true],
      [kept, false],
    ]);
  });

  it("its order page says what happened in plain words, with no entry code and no downloads; the kit's links answer staff only", async () => {
    const id = await approved({ showOnWall: true, wallName: "Mercy" });
    const token = await tokenOf(id);
    const approvedPage = await orderByToken(db, id, token);
    expect(approvedPage).toMatchObject({ status: "approved", entry: expect.any(Object), kit: expect.any(Object) });

    await revokeSupporterBadge(db, id, "Refunded", STAFF);
    const page = (await orderByToken(db, id, token))!;
    expect(page).toMatchObject({ status: "revoked", note: "Refunded", revokedAt: expect.stringMatching(/^\d{4}-/), entry: null, kit: null, wall: null });
    await expect(readOrderAsset(db, id, "badge", token, false)).rejects.toThrow("No such image.");
    await expect(readOrderAsset(db, id, "poster", token, false)).rejects.toThrow("No such image.");
    expect(await readOrderAsset(db, id, "badge", null, true)).toBeInstanceOf(Buffer);
    // The supporter's own portrait is still theirs to see.
    expect(await readOrderAsset(db, id, "portrait", token, false)).toBeInstanceOf(Buffer);
  });

  it("gets no kit resent and no day-before reminder", async () => {
    const id = await approved();
    const other = await approved({ name: "Brian Otieno", email: "brian@example.org" });
    await revokeSupporterBadge(db, id, "Refunded", STAFF);
    await expect(resendBadgeKit(db, id, STAFF)).rejects.toThrow("This badge was revoked: its kit is not sent again.");
    await saveEvent(db, EventSchema.parse({ title: "Concert", date: "2026-12-12", time: "18:30", venue: "KICC", salesOpen: "2026-11-01", raiseTarget: "500000", goal_t1: "1", goal_t2: "1", goal_t3: "1", goal_t4: "1", goal_t5: "1" }), STAFF);
    expect(await queueEventReminders(db, new Date("2026-12-11T10:00:00+03:00"))).toEqual({ queued: 1 });
    const reminded = await db.selectFrom("badge_orders").select(["id", "reminder_for"]).where("reminder_for", "is not", null).execute();
    expect(reminded.map((r) => r.id)).toEqual([other]);
  });
});

describe("staff search for badge orders", () => {
  it("reads a code typed with spaces or dashes, or a pasted SMS, as the order form does; and says how many matched in each state", async () => {
    const code = "TKD4BK8D9T";
    const id = await approved({ paymentReference: code, name: "Samuel Kamau", email: "samuel@example.org" });
    await approved({ name: "Samuel Otieno", email: "otieno@example.org" });
    for (const typed of ["TKD4 BK8D9T", "tkd4-bk8d9t", " TKD4 BK8 D9T ", "TKD4BK8D9T Confirmed. Ksh1,300.00 sent to STREET LIGHT", "tkd4 bk"]) {
      expect((await listBadgeOrders(db, { q: typed })).map((o) => o.id), typed).toEqual([id]);
    }
    // Names still match as typed (a space is not taken out of them).
    expect((await listBadgeOrders(db, { q: "samuel k" })).map((o) => o.id)).toEqual([id]);
    await setBadgeOrderStatus(db, id, "rejected", STAFF);
    expect(foundByStatus(await listBadgeOrders(db, { q: "samuel" }))).toEqual({ all: 2, pending: 0, approved: 1, rejected: 1 });
  });
});
