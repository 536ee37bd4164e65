import crypto from "node:crypto";
import QRCode from "qrcode";
import { z } from "zod";
import type { Actor } from "~/lib/actor";
import { nowIso, type Db } from "~/lib/db.server";
import { DomainError } from "~/lib/domain-error";
import { getSessionSecret, safeEqual } from "~/lib/secrets.server";
import { putBlob } from "~/lib/blob-store.server";
import { absoluteUrl } from "~/lib/http.server";
import { CHECK_IN_PATH } from "./ticket";
import type { DoorEntry } from "./check-in";
import type { BadgeOrdersTable } from "./event-badges.tables";
import { anyColumnContains } from "~/lib/sql.server";
import { logAction } from "../activity/activity.server";
import { smallPortrait } from "./portrait.server";

/**
 * Door check-in. Each approved order has an entry ticket: its reference and a signature only
 * this site can make (an HMAC under a key derived from the site's session secret, which every
 * process shares), so a ticket cannot be guessed or made up from a reference, and a forged one
 * is refused before the database is asked. A ticket or a reference checks its supporter in
 * once: the first scan records the time, every later one answers 'already', with that time.
 */
const TICKET = /^(BO-[0-9A-Z]{6})\.([A-Za-z0-9_-]{22})$/;

const signature = (id: string) =>
  crypto.createHmac("sha256", getSessionSecret()).update(`entry-ticket:${id}`).digest("base64url").slice(0, 22);

/** The entry ticket of an order (what its QR code carries). */
export const entryTicket = (id: string) => `${id}.${signature(id)}`;

/**
 * What an entry QR code holds: the check-in screen's address with the ticket, so a staff
 * phone's own camera app opens the screen too (a supporter who scans it meets the sign-in).
 */
export const entryUrl = (id: string) => absoluteUrl(`${CHECK_IN_PATH}?ticket=${encodeURIComponent(entryTicket(id))}`);

/** The stored file of an order's entry QR code (attached to its kit and reminder emails). */
export const entryQrKey = (id: string) => `badge-orders/${id}/entry-qr.png`;

/**
 * Draws the order's entry QR code (medium error correction, a wide quiet zone, large modules
 * for a dim phone screen held up at a door) and stores it. The same bytes every time for the
 * same order, so drawing it again (a resend, a reminder) changes nothing.
 */
export async function storeEntryQr(db: Db, id: string) {
  const png = await QRCode.toBuffer(entryUrl(id), { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 6 });
  await putBlob(db, entryQrKey(id), png);
  return entryQrKey(id);
}

/** The same code as SVG, for the supporter's own order page. */
export const entryQrSvg = (id: string) => QRCode.toString(entryUrl(id), { type: "svg", errorCorrectionLevel: "M", margin: 4 });

/** The order a ticket names, or null when it is not one of ours. */
export function orderOfTicket(ticket: string): string | null {
  const m = TICKET.exec(ticket.trim());
  return m && safeEqual(m[2]!, signature(m[1]!)) ? m[1]! : null;
}

export const CHECK_IN_MESSAGES = {
  forged: "This ticket is not one of ours. Check the code, or look the supporter up by reference or name.",
  notFound: "No approved order with that reference.",
} as const;

/** `{token}` (the scanned ticket) or `{reference}` (typed at the door), as the API and the screen send them. */
export const TicketSchema = z.object({ token: z.string({ error: "token must be text." }).trim().min(1, "Scan or type a ticket.").max(100, CHECK_IN_MESSAGES.forged) });
export const ReferenceSchema = z.object({
  reference: z.string({ error: "reference must be text." }).trim().toUpperCase().regex(/^BO-[0-9A-Z]{6}$/, "A reference looks like BO-ABC123."),
});
export type CheckInInput = z.output<typeof TicketSchema> | z.output<typeof ReferenceSchema>;
/** Which of the two a body sends (a ticket wins); neither is the caller's mistake. */
export const checkInSchemaFor = (body: Record<string, unknown>) => ("token" in body ? TicketSchema : "reference" in body ? ReferenceSchema : null);

export type CheckInResult = {
  order: { id: string; name: string; tierName: string; hardCopy: boolean };
  checkedInAt: string;
  already: boolean;
};

export async function checkIn(db: Db, input: CheckInInput, actor: Actor): Promise<CheckInResult> {
  const id = "token" in input ? orderOfTicket(input.token) : input.reference;
  if (!id) throw new DomainError("not_found", CHECK_IN_MESSAGES.forged);
  const row = await db
    .selectFrom("badge_orders")
    .select(["id", "name", "tier_name", "hard_copy", "status"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row || row.status !== "approved") throw new DomainError("not_found", CHECK_IN_MESSAGES.notFound);
  const order = { id: row.id, name: row.name, tierName: row.tier_name, hardCopy: row.hard_copy === 1 };
  const at = nowIso();
  // Compare-and-set: of any number of scans at once, exactly one finds it still empty. The
  // arrival and its log line are one commit (one disk flush per check-in at the door).
  const first = await db.transaction().execute(async (trx) => {
    const won = await trx.updateTable("badge_orders").set({ checked_in_at: at }).where("id", "=", id).where("checked_in_at", "is", null).executeTakeFirst();
    if (Number(won.numUpdatedRows) !== 1) return false;
    await logAction(trx, actor, { type: "badge_orders.check_in", message: `Order ${id} checked in`, meta: { id } });
    return true;
  });
  if (first) return { order, checkedInAt: at, already: false };
  const earlier = await db.selectFrom("badge_orders").select("checked_in_at").where("id", "=", id).executeTakeFirstOrThrow();
  return { order, checkedInAt: earlier.checked_in_at!, already: true };
}

/** How the door is doing: supporters let in, of the approved. */
export async function checkInCounts(db: Db): Promise<{ arrived: number; approved: number }> {
  const row = await db
    .selectFrom("badge_orders")
    .select((eb) => [eb.fn.countAll<number>().as("approved"), eb.fn.count<number>("checked_in_at").as("arrived")])
    .where("status", "=", "approved")
    .executeTakeFirstOrThrow();
  return { arrived: Number(row.arrived), approved: Number(row.approved) };
}

const doorEntry = (r: Pick<BadgeOrdersTable, "id" | "name" | "tier_name" | "hard_copy" | "portrait_file" | "checked_in_at">): DoorEntry => ({
  id: r.id,
  name: r.name,
  tierName: r.tier_name,
  hardCopy: r.hard_copy === 1,
  hasPortrait: !!r.portrait_file,
  checkedInAt: r.checked_in_at,
});

export const DOOR_SEARCH_LIMIT = 20;

/**
 * Approved supporters whose reference or name holds `text` (typed at the door: 'BO-7K2', '7k2q',
 * 'wanjiru'), those not yet in first, at most 20.
 */
export async function findAtDoor(db: Db, text: string): Promise<DoorEntry[]> {
  const q = text.trim().slice(0, 80);
  if (!q) return [];
  const rows = await db
    .selectFrom("badge_orders")
    .select(["id", "name", "tier_name", "hard_copy", "portrait_file", "checked_in_at"])
    .where("status", "=", "approved")
    .where(anyColumnContains(["id", "name"], q))
    .orderBy((eb) => eb.case().when("checked_in_at", "is", null).then(0).else(1).end())
    .orderBy("name")
    .limit(DOOR_SEARCH_LIMIT)
    .execute();
  return rows.map(doorEntry);
}

/** One approved supporter, as the door screen shows them after a check-in. */
export async function doorEntryOf(db: Db, id: string): Promise<DoorEntry | null> {
  const row = await db
    .selectFrom("badge_orders")
    .select(["id", "name", "tier_name", "hard_copy", "portrait_file", "checked_in_at"])
    .where("id", "=", id)
    .where("status", "=", "approved")
    .executeTakeFirst();
  return row ? doorEntry(row) : null;
}

/** The badge table's list: approved supporters who asked for a hard-copy badge, by tier then name. */
export async function hardCopyList(db: Db): Promise<{ tierKey: string; tierName: string; people: DoorEntry[] }[]> {
  const rows = await db
    .selectFrom("badge_orders")
    .select(["id", "name", "tier_key", "tier_name", "hard_copy", "portrait_file", "checked_in_at"])
    .where("status", "=", "approved")
    .where("hard_copy", "=", 1)
    .orderBy("tier_key")
    .orderBy("name")
    .execute();
  const groups = new Map<string, { tierKey: string; tierName: string; people: DoorEntry[] }>();
  for (const r of rows) {
    const g = groups.get(r.tier_key) ?? { tierKey: r.tier_key, tierName: r.tier_name, people: [] };
    g.people.push(doorEntry(r));
    groups.set(r.tier_key, g);
  }
  return [...groups.values()];
}

/** A door phone shows a small portrait: 192 px WebP (a few kB), not the stored 720 px PNG. */
export const DOOR_PORTRAIT_SIZE = 192;

/** The small portrait of an approved order, or null (no such order, not approved, no portrait). */
export async function doorPortrait(db: Db, id: string): Promise<Buffer | null> {
  if (!/^BO-[0-9A-Z]{6}$/.test(id)) return null;
  const row = await db.selectFrom("badge_orders").select(["portrait_file"]).where("id", "=", id).where("status", "=", "approved").executeTakeFirst();
  return row?.portrait_file ? smallPortrait(db, id, DOOR_PORTRAIT_SIZE) : null;
}
