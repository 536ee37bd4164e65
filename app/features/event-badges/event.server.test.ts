import { plainKitPng } from "../../../tests/support/kit-png";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listActivity } from "~/features/activity/activity.server";
import { staff } from "~/lib/core/actor";
import { closeDb, getDb, type Db } from "~/lib/db/db.server";
import { drainOutbox } from "~/lib/mail/email.server";
import { freshApp } from "../../../tests/support/reset";
import { startSmtpReceiver, type SmtpReceiver } from "../../../tests/support/smtp";
import { BadgeOrderSchema } from "./badge-order.schema";
import { attachBadgeAssets, setBadgeOrderStatus, submitBadgeOrder } from "./badge-orders.server";
import { CHECK_IN_MESSAGES, checkInCounts, findAtDoor, hardCopyList, missingAtDoor, orderOfTicket, checkIn } from "./check-in.server";
import { DEFAULT_EVENT, eventDateText } from "./event";
import { EventSchema, type EventInput } from "./event.schema";
import { getEvent, saveEvent } from "./event.server";
import { eventProgress } from "./progress.server";
import { queueEventReminders, reminderWindow } from "./reminders.server";
import { referenceInWords, ticketFromScan } from "./ticket";
import { readQrFromPhoto } from "./ticket-photo.server";

const STAFF = staff("203.0.113.9");
let codes = 0;
const nextCode = () => `QE${String(++codes).padStart(8, "0")}`;

const form = (fields: Record<string, string> = {}) => ({
  title: "Street Vespers Christmas Concert",
  date: "2026-12-12",
  time: "18:30",
  venue: "KICC, Nairobi",
  salesOpen: "2026-11-01",
  raiseTarget: "500000",
  goal_t1: "40",
  goal_t2: "21",
  goal_t3: "13",
  goal_t4: "8",
  goal_t5: "6",
  ...fields,
});
const valid = (fields: Record<string, string> = {}): EventInput => EventSchema.parse(form(fields));

let smtp: SmtpReceiver;
let png: Buffer;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  png = await plainKitPng();
});
afterAll(() => smtp.close());

let db: Db;
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: smtp.url });
  smtp.clear();
});

/** An approved order (kit emailed), as staff would leave it. */
async function approved(fields: Record<string, unknown> = {}) {
  const input = BadgeOrderSchema.parse({ tierKey: "t2", name: "Amani Wanjiku", email: "amani@example.org", paymentReference: nextCode(), ...fields });
  const { id } = await submitBadgeOrder(db, input, null);
  await attachBadgeAssets(db, id, { badge: png, poster: png }, STAFF);
  await setBadgeOrderStatus(db, id, "approved", STAFF);
  return id;
}

describe("the event record", () => {
  it("starts as the first concert (the spec's date and target) and is what the goal bar reads", async () => {
    const e = await getEvent(db);
    expect(e).toMatchObject({ title: DEFAULT_EVENT.title, date: "2025-11-23", raiseTarget: 468_500, tierGoals: { t1: 34, t2: 21, t3: 13, t4: 8, t5: 5 } });
    expect(eventDateText(e)).toBe("23 November 2025");
    expect((await eventProgress(db)).target).toBe(468_500);
  });

  it("saved by staff, it is read everywhere at once, and the change is logged", async () => {
    await saveEvent(db, valid(), STAFF);
    const e = await getEvent(db);
    expect(e).toMatchObject({ title: "Street Vespers Christmas Concert", date: "2026-12-12", time: "18:30", venue: "KICC, Nairobi", salesOpen: "2026-11-01" });
    const progress = await eventProgress(db);
    expect(progress.target).toBe(500_000);
    expect(progress.tiers.find((t) => t.key === "t1")?.goal).toBe(40);
    expect(progress.tiers.find((t) => t.key === "t5")?.goal).toBe(6);
    const [logged] = (await listActivity(db, { limit: 5 })).filter((a) => a.type === "event.update");
    expect(logged?.message).toBe("Event set to Street Vespers Christmas Concert on 2026-12-12");
  });

  it("refuses what is not a date, a time, a whole positive target, or sales opening after the evening", () => {
    const refused = (fields: Record<string, string>) => {
      const r = EventSchema.safeParse(form(fields));
      return r.success ? null : r.error.issues[0]?.message;
    };
    expect(refused({ date: "2026-02-30" })).toBe("Event date must be a real date.");
    expect(refused({ date: "12/12/2026" })).toBe("Event date must be a date (YYYY-MM-DD).");
    expect(refused({ time: "25:00" })).toBe("Start time must be a time (HH:MM, 24-hour).");
    expect(refused({ raiseTarget: "-5" })).toBe("Raise target must be at least KES 1.");
    expect(refused({ raiseTarget: "12.5" })).toBe("Raise target must be whole shillings.");
    expect(refused({ goal_t3: "0" })).toBe("Big Friend's target must be at least 1.");
    expect(refused({ title: "<b>".repeat(50) })).toBe("Event name must be at most 120 characters.");
    expect(refused({ salesOpen: "2027-01-01" })).toBe("Sales must open on or before the event date.");
    // Time and sales opening may be left empty.
    expect(refused({ time: "", salesOpen: "" })).toBeNull();
  });
});

describe("the entry ticket and the door", () => {
  it("the kit's QR code checks its supporter in once; the search finds them by name or part of the reference", async () => {
    const id = await approved({ name: "Wanjirũ Njoroge", hardCopy: true });
    await drainOutbox();
    const kit = smtp.messages.find((m) => m.mail.subject?.startsWith("Your Helping Hand badge"))!;
    const qr = kit.mail.attachments.find((a) => a.filename === `${id}-entry-qr.png`)!;
    const ticket = ticketFromScan((await readQrFromPhoto(qr.content))!);
    expect(orderOfTicket(ticket)).toBe(id);
    expect(kit.mail.text).toContain(referenceInWords(id));

    expect(await checkInCounts(db)).toEqual({ arrived: 0, approved: 1 });
    expect((await findAtDoor(db, "wanjir")).map((p) => p.id)).toEqual([id]);
    expect((await findAtDoor(db, id.slice(3, 7).toLowerCase())).map((p) => p.id)).toEqual([id]);
    const first = await checkIn(db, { token: ticket }, STAFF);
    expect(first.already).toBe(false);
    const again = await checkIn(db, { reference: id }, STAFF);
    expect(again).toMatchObject({ already: true, checkedInAt: first.checkedInAt });
    expect(await checkInCounts(db)).toEqual({ arrived: 1, approved: 1 });
    const [hit] = await findAtDoor(db, "Njoroge");
    expect(hit).toMatchObject({ id, hardCopy: true, checkedInAt: first.checkedInAt });
  });

  it("at the door a pending order reads as not yet approved, an unknown reference as no such order; neither is let in", async () => {
    const input = BadgeOrderSchema.parse({ tierKey: "t1", name: "Unpaid Yet", email: "unpaid@example.org", paymentReference: nextCode() });
    const { id } = await submitBadgeOrder(db, input, null);
    const pending = `${id} is not yet approved: its payment has not been checked. Look at it under Badge orders.`;
    await expect(checkIn(db, { reference: id }, STAFF)).rejects.toThrow(pending);
    expect(await missingAtDoor(db, id)).toBe(pending);
    await expect(checkIn(db, { reference: "BO-ZZZZZZ" }, STAFF)).rejects.toThrow(CHECK_IN_MESSAGES.notFound);
    expect(await missingAtDoor(db, "BO-ZZZZZZ")).toBe(CHECK_IN_MESSAGES.notFound);
    expect((await checkInCounts(db)).arrived).toBe(0);
  });

  it("the badge table's list holds approved hard-copy requests only, by tier", async () => {
    const a = await approved({ tierKey: "t5", name: "Zawadi", hardCopy: true });
    const b = await approved({ tierKey: "t1", name: "Baraka", hardCopy: true });
    await approved({ tierKey: "t1", name: "No Paper" });
    const input = BadgeOrderSchema.parse({ tierKey: "t1", name: "Pending Person", email: "p@example.org", paymentReference: nextCode(), hardCopy: true });
    await submitBadgeOrder(db, input, null);
    const list = await hardCopyList(db);
    expect(list.map((g) => [g.tierName, g.people.map((p) => p.id)])).toEqual([
      ["Friends Badge", [b]],
      ["Champion", [a]],
    ]);
  });
});

describe("day-before reminders", () => {
  const event = { ...DEFAULT_EVENT, date: "2026-12-12", time: "18:30" };
  const dayBefore = new Date("2026-12-11T09:30:00+03:00");

  it("are due from 09:00 in Nairobi the day before until the evening starts", () => {
    const { from, until } = reminderWindow(event);
    expect(from.toISOString()).toBe("2026-12-11T06:00:00.000Z");
    expect(until.toISOString()).toBe("2026-12-12T15:30:00.000Z");
    expect(reminderWindow({ ...event, time: null }).until.toISOString()).toBe("2026-12-12T21:00:00.000Z");
  });

  it("are queued once per approved supporter, with the entry QR, however often they run and across a restart", async () => {
    await saveEvent(db, valid(), STAFF);
    const one = await approved({ email: "one@example.org" });
    const two = await approved({ email: "two@example.org" });
    const pending = BadgeOrderSchema.parse({ tierKey: "t1", name: "Not Yet", email: "pending@example.org", paymentReference: nextCode() });
    await submitBadgeOrder(db, pending, null);
    await drainOutbox();
    smtp.clear();

    // Too early: nothing.
    expect(await queueEventReminders(db, new Date("2026-12-11T05:59:00Z"))).toEqual({ queued: 0 });
    // Two runs at once (two processes), then again.
    const runs = await Promise.all([queueEventReminders(db, dayBefore), queueEventReminders(db, dayBefore)]);
    expect(runs[0]!.queued + runs[1]!.queued).toBe(2);
    expect(await queueEventReminders(db, dayBefore)).toEqual({ queued: 0 });
    // A restart (the outbox drained on the way down, as the server's shutdown does): the
    // database closed and opened again, the run repeated.
    await drainOutbox();
    await closeDb();
    db = await getDb();
    expect(await queueEventReminders(db, new Date("2026-12-12T10:00:00+03:00"))).toEqual({ queued: 0 });

    await drainOutbox();
    const reminders = smtp.messages.filter((m) => m.mail.subject === "Tomorrow: Street Vespers Christmas Concert");
    expect(reminders.map((m) => m.envelope.to[0]).sort()).toEqual(["one@example.org", "two@example.org"]);
    for (const [m, id] of [[reminders.find((r) => r.envelope.to[0] === "one@example.org")!, one], [reminders.find((r) => r.envelope.to[0] === "two@example.org")!, two]] as const) {
      expect(m.mail.text).toContain("12 December 2026 at 18:30, at KICC, Nairobi");
      const qr = m.mail.attachments.find((a) => a.filename === `${id}-entry-qr.png`)!;
      expect(orderOfTicket(ticketFromScan((await readQrFromPhoto(qr.content))!))).toBe(id);
    }
  });

  it("are not sent once the evening has begun, and a new date reminds again", async () => {
    await saveEvent(db, valid(), STAFF);
    await approved({ email: "late@example.org" });
    expect(await queueEventReminders(db, new Date("2026-12-12T18:31:00+03:00"))).toEqual({ queued: 0 });
    expect(await queueEventReminders(db, dayBefore)).toEqual({ queued: 1 });
    // The concert moves a week: everyone is reminded for the new date.
    await saveEvent(db, valid({ date: "2026-12-19" }), STAFF);
    expect(await queueEventReminders(db, dayBefore)).toEqual({ queued: 0 });
    expect(await queueEventReminders(db, new Date("2026-12-18T09:00:00+03:00"))).toEqual({ queued: 1 });
  });
});
