import { putBlob } from "~/lib/db/blob-store.server";
import type { Db } from "~/lib/db/db.server";
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


