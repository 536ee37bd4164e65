import { putBlob } from "~/lib/blob-store.server";
import { appendedTo, noteEntry } from "~/lib/staff-notes.server";
import type { Db } from "~/lib/db.server";
import type { BadgeOrdersTable } from "./event-badges.tables";
import { orderFileKey } from "./portrait.server";

/**
 * The badge orders' part of moving the old site in (app/features/legacy-import): old orders
 * written as they stood (status, times, staff note), with their portrait already checked and
 * re-encoded; no mail is queued.
 */
export async function importBadgeOrder(db: Db, row: BadgeOrdersTable, portraitPng: Buffer | null) {
  // The portrait is stored before the order that points at it, as a new order's is.
  if (portraitPng && row.portrait_file) await putBlob(db, orderFileKey(row.id, row.portrait_file), portraitPng);
  await db.insertInto("badge_orders").values(row).execute();
}

/** Adds a dated entry to an order's staff note (a flag staff see on the order screens); nothing is cut. */
export async function appendBadgeStaffNote(db: Db, id: string, note: string) {
  await db.updateTable("badge_orders").set({ staff_note: appendedTo("staff_note", noteEntry(note)) }).where("id", "=", id).execute();
}

/** True when a badge order here already has this payment reference. */
export async function badgeReferenceTaken(db: Db, reference: string) {
  return !!(await db.selectFrom("badge_orders").select("id").where("payment_reference", "=", reference).executeTakeFirst());
}
