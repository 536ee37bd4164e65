import crypto from "node:crypto";
import { z } from "zod";
import type { Actor } from "~/lib/actor";
import { nowIso, type Db } from "~/lib/db.server";
import { DomainError } from "~/lib/domain-error";
import { getSessionSecret, safeEqual } from "~/lib/secrets.server";
import { logAction } from "../activity/activity.server";

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
  // Compare-and-set: of any number of scans at once, exactly one finds it still empty.
  const first = await db.updateTable("badge_orders").set({ checked_in_at: at }).where("id", "=", id).where("checked_in_at", "is", null).executeTakeFirst();
  if (Number(first.numUpdatedRows) === 1) {
    await logAction(db, actor, { type: "badge_orders.check_in", message: `Order ${id} checked in`, meta: { id } });
    return { order, checkedInAt: at, already: false };
  }
  const earlier = await db.selectFrom("badge_orders").select("checked_in_at").where("id", "=", id).executeTakeFirstOrThrow();
  return { order, checkedInAt: earlier.checked_in_at!, already: true };
}
