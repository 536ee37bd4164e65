import type { Db } from "~/lib/db/db.server";
import type { MerchItem } from "./merch";
import { listItems, merchItemRow } from "./merch.server";
import type { MerchOrdersTable } from "./merch.tables";

/**
 * The store's part of moving the old site in (app/features/legacy-import): catalogue items after
 * those already here, and old orders written as they stood, with no mail sent.
 */

/** An item of the old merch.json; an item whose id or slug is here already is left as it is. */
export async function importMerchItem(db: Db, item: MerchItem): Promise<"added" | "exists"> {
  const there = await db
    .selectFrom("merch_items")
    .select("id")
    .where((eb) => eb.or([eb("id", "=", item.id), eb("slug", "=", item.slug)]))
    .executeTakeFirst();
  if (there) return "exists";
  const last = await db.selectFrom("merch_items").select((eb) => eb.fn.max("sort").as("sort")).executeTakeFirst();
  await db.insertInto("merch_items").values(merchItemRow(item, Number(last?.sort ?? -1) + 1)).execute();
  return "added";
}

export { listItems as catalogueItems };

/** An old order, as it stood (its status, times and staff notes); queues no mail. */
export async function importMerchOrder(db: Db, row: MerchOrdersTable) {
  await db.insertInto("merch_orders").values(row).execute();
}


