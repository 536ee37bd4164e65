import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { orderPagePath } from "~/features/orders/order-page";
import { ORDER_NOT_FOUND } from "./badge-order";

/** The stored order holding a code is this one sent again: the same email (any case) and tier. */
export async function isSameBadgeOrder(db: Db, storedId: string, order: { email: string; tierKey: string }) {
  const row = await db.selectFrom("badge_orders").select(["email", "tier_key"]).where("id", "=", storedId).executeTakeFirst();
  return !!row && row.email.toLowerCase() === order.email.toLowerCase() && row.tier_key === order.tierKey;
}

/** The answer the first submission got (its reference and order page), marked as a replay. */
export async function replayedBadgeOrder(db: Db, id: string) {
  const row = await db.selectFrom("badge_orders").select(["id", "asset_token"]).where("id", "=", id).executeTakeFirst();
  if (!row) throw new DomainError("not_found", ORDER_NOT_FOUND);
  return { id: row.id, orderPath: orderPagePath(row.id, row.asset_token), replayed: true as const };
}
