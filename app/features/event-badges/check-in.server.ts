import crypto from "node:crypto";
import QRCode from "qrcode";
import { z } from "zod";
import type { Actor } from "~/lib/core/actor";
import { nowIso, type Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { getSessionSecret, safeEqual } from "~/lib/db/secrets.server";
import { putBlob } from "~/lib/db/blob-store.server";
import { absoluteUrl } from "~/lib/http/http.server";
import { CHECK_IN_PATH } from "./ticket";
import { doorReference, refusalText, type DoorEntry, type DoorRefusal } from "./check-in";
import type { BadgeOrdersTable } from "./event-badges.tables";
import { anyColumnContains } from "~/lib/db/sql.server";
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

/** A real order whose payment staff have not approved yet: not a mistyped reference. */
export const notYetApproved = (id: string) => `${id} is not yet approved: its payment has not been checked. Look at it under Badge orders.`;

/** Why an order cannot be shown at the door: not yet approved, or no such order. */
export async function missingAtDoor(db: Db, id: string): Promise<string> {
  const row = await db.selectFrom("badge_orders").select("status").where("id", "=", id).executeTakeFirst();
  return row?.status === "pending" ? notYetApproved(id) : CHECK_IN_MESSAGES.notFound;
}

/** `{token}` (the scanned ticket) or `{reference}` (typed at the door), as the API and the screen send them. */
export const TicketSchema = z.object({ token: z.string({ error: "token must be text." }).trim().min(1, "Scan or type a ticket.").max(100, CHECK_IN_MESSAGES.forged) });
/** A reference with or without 'BO-', any case, spaces and dashes allowed ('q9j 65j'). */
export const ReferenceSchema = z.object({
  reference: z
    .string({ error: "reference must be text." })
    .max(40, "A reference looks like BO-ABC123.")
    .transform((text, ctx) => doorReference(text) ?? (ctx.addIssue({ code: "custom", message: "A reference looks like BO-ABC123." }), z.NEVER)),
});
export type CheckInInput = z.output<typeof TicketSchema> | z.output<typeof ReferenceSchema>;
/** Which of the two a body sends (a ticket wins); neither is the caller's mistake. */
export const checkInSchemaFor = (body: Record<string, unknown>) => ("token" in body ? TicketSchema : "reference" in body ? ReferenceSchema : null);

export type CheckInResult = {
  order: { id: string; name: string; tierName: string; hardCopy: boolean };
  checkedInAt: string;
  already: boolean;
};

/**
 * A ticket or reference whose order may not come in: its badge was revoked, or the order was
 * rejected. A 409 with the reason in words; the door screen shows who it is, in red.
 */
export class RefusedAtDoor extends DomainError {
  constructor(readonly entry: DoorEntry & { refused: DoorRefusal }) {
    super("conflict", refusalText(entry));
  }
}

const DOOR_COLUMNS = [
  "id",
  "name",
  "tier_name",
  "hard_copy",
  "portrait_file",
  "checked_in_at",
  "status",
  "rejected_at",
  "supporter_note",
  "badge_revoked_at",
  "badge_revocation_reason",
] as const;
type DoorRow = Pick<BadgeOrdersTable, (typeof DOOR_COLUMNS)[number]>;

/** Why this order is refused at the door, or null when it may come in. */
function refusalOf(r: Pick<DoorRow, "status" | "rejected_at" | "supporter_note" | "badge_revoked_at" | "badge_revocation_reason">): DoorRefusal | null {
  if (r.status === "rejected") return { kind: "rejected", at: r.rejected_at, reason: r.supporter_note };
  if (r.badge_revoked_at) return { kind: "revoked", at: r.badge_revoked_at, reason: r.badge_revocation_reason };
  return null;
}

/**
 * Checks a supporter in by ticket or reference. A revoked badge or a rejected order is refused
 * (RefusedAtDoor, with the reason), before anything is written; a pending one is not yet
 * approved, an unknown one not found.
 */
export async function checkIn(db: Db, input: CheckInInput, actor: Actor): Promise<CheckInResult> {
  const id = "token" in input ? orderOfTicket(input.token) : input.reference;
  if (!id) throw new DomainError("not_found", CHECK_IN_MESSAGES.forged);
  const row = await db.selectFrom("badge_orders").select(DOOR_COLUMNS).where("id", "=", id).executeTakeFirst();
  if (!row) throw new DomainError("not_found", CHECK_IN_MESSAGES.notFound);
  if (row.status === "pending") throw new DomainError("not_found", notYetApproved(row.id));
  const entry = doorEntry(row);
  if (entry.refused) throw new RefusedAtDoor({ ...entry, refused: entry.refused });
  const order = { id: row.id, name: row.name, tierName: row.tier_name, hardCopy: row.hard_copy === 1 };
  const at = nowIso();
  // Compare-and-set: of any number of scans at once, exactly one finds it still empty. The
  // arrival and its log line are one commit (one disk flush per check-in at the door).
  const first = await db.transaction().execute(async (trx) => {
    // Only while it may still come in: a revocation made meanwhile wins.
    const won = await trx
      .updateTable("badge_orders")
      .set({ checked_in_at: at })
      .where("id", "=", id)
      .where("checked_in_at", "is", null)
      .where("status", "=", "approved")
      .where("badge_revoked_at", "is", null)
      .executeTakeFirst();
    if (Number(won.numUpdatedRows) !== 1) return false;
    await logAction(trx, actor, { type: "badge_orders.check_in", message: `Order ${id} checked in`, meta: { id } });
    return true;
  });
  if (first) return { order, checkedInAt: at, already: false };
  const now = await db.selectFrom("badge_orders").select(DOOR_COLUMNS).where("id", "=", id).executeTakeFirstOrThrow();
  const later = doorEntry(now);
  if (later.refused) throw new RefusedAtDoor({ ...later, refused: later.refused });
  return { order, checkedInAt: now.checked_in_at!, already: true };
}

/** How the door is doing: supporters let in, of the approved (a revoked badge counts in neither). */
export async function checkInCounts(db: Db): Promise<{ arrived: number; approved: number }> {
  const row = await db
    .selectFrom("badge_orders")
    .select((eb) => [eb.fn.countAll<number>().as("approved"), eb.fn.count<number>("checked_in_at").as("arrived")])
    .where("status", "=", "approved")
    .where("badge_revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  return { arrived: Number(row.arrived), approved: Number(row.approved) };
}

const doorEntry = (r: DoorRow): DoorEntry => ({
  id: r.id,
  name: r.name,
  tierName: r.tier_name,
  hardCopy: r.hard_copy === 1,
  hasPortrait: !!r.portrait_file,
  checkedInAt: r.checked_in_at,
  refused: refusalOf(r),
});

export const DOOR_SEARCH_LIMIT = 20;

/**
 * Supporters whose reference or name holds `text` (typed at the door: 'BO-7K2', '7k2q', 'q9j 65j',
 * 'wanjiru'), those not yet in first, at most 20: the approved, and those refused at the door
 * (a revoked badge, a rejected order), so staff who look someone up see why they may not come in.
 */
export async function findAtDoor(db: Db, text: string): Promise<DoorEntry[]> {
  const q = text.trim().slice(0, 80);
  if (!q) return [];
  const compact = q.replace(/\s+/g, "");
  const rows = await db
    .selectFrom("badge_orders")
    .select(DOOR_COLUMNS)
    .where("status", "in", ["approved", "rejected"])
    .where((eb) => (compact !== q ? eb.or([anyColumnContains(["id", "name"], q), anyColumnContains(["id"], compact)]) : anyColumnContains(["id", "name"], q)))
    .orderBy((eb) => eb.case().when("status", "=", "rejected").then(1).when("badge_revoked_at", "is not", null).then(1).else(0).end())
    .orderBy((eb) => eb.case().when("checked_in_at", "is", null).then(0).else(1).end())
    .orderBy("name")
    .limit(DOOR_SEARCH_LIMIT)
    .execute();
  return rows.map(doorEntry);
}

/** One supporter (approved, or refused at the door), as the door screen shows them after a check-in. */
export async function doorEntryOf(db: Db, id: string): Promise<DoorEntry | null> {
  const row = await db.selectFrom("badge_orders").select(DOOR_COLUMNS).where("id", "=", id).where("status", "!=", "pending").executeTakeFirst();
  return row ? doorEntry(row) : null;
}

/**
 * The badge table's list: approved supporters who asked for a hard-copy badge, by tier then
 * name; a revoked badge stays on it, marked (it may have been printed already), and is not counted.
 */
export async function hardCopyList(db: Db): Promise<{ tierKey: string; tierName: string; people: DoorEntry[] }[]> {
  const rows = await db
    .selectFrom("badge_orders")
    .select([...DOOR_COLUMNS, "tier_key"])
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

/** A door phone shows a small portrait: 192 px WebP (a few kB), not the stored 720 px portrait. */
export const DOOR_PORTRAIT_SIZE = 192;

/** The small portrait of an order the door may see (approved, or refused there), or null (no such order, pending, no portrait). */
export async function doorPortrait(db: Db, id: string): Promise<Buffer | null> {
  if (!/^BO-[0-9A-Z]{6}$/.test(id)) return null;
  const row = await db.selectFrom("badge_orders").select(["portrait_file"]).where("id", "=", id).where("status", "!=", "pending").executeTakeFirst();
  return row?.portrait_file ? smallPortrait(db, id, row.portrait_file, DOOR_PORTRAIT_SIZE) : null;
}
