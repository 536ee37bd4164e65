import type { Actor } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { clearPageCache } from "~/lib/http/page-cache.server";
import { logAction } from "../activity/activity.server";
import { wallNameOf } from "./wall";
import { smallPortrait } from "./portrait.server";
import { findTier } from "./tiers";

/**
 * The supporter wall (/event/supporters): approved supporters who said yes (a revoked badge
 * is not shown), newest approval first, by the name they chose (else their first name) and tier; their portrait only if they
 * said yes to that too. Never an email, phone, payment code or order id: a portrait's address
 * carries the order's wall key instead.
 */
export type WallEntry = { name: string; tierKey: string; tierName: string; portrait: string | null };

export const WALL_LIMIT = 500;
export const WALL_PORTRAIT_SIZE = 160;
const WALL_KEY = /^[A-Za-z0-9_-]{16,40}$/;

export const wallPortraitPath = (key: string) => `/event/supporters/${key}.webp`;

export async function listWall(db: Db): Promise<WallEntry[]> {
  const rows = await db
    .selectFrom("badge_orders")
    .select(["name", "wall_name", "tier_key", "tier_name", "wall_portrait", "portrait_file", "wall_key"])
    .where("status", "=", "approved")
    .where("badge_revoked_at", "is", null)
    .where("wall_opt_in", "=", 1)
    .where("wall_hidden", "=", 0)
    .orderBy("approved_at", "desc")
    .orderBy("id", "desc")
    .limit(WALL_LIMIT)
    .execute();
  return rows.map((r) => ({
    name: wallNameOf({ name: r.name, wallName: r.wall_name }) || "A supporter",
    tierKey: r.tier_key,
    tierName: findTier(r.tier_key)?.name ?? r.tier_name,
    portrait: r.wall_portrait && r.portrait_file && r.wall_key ? wallPortraitPath(r.wall_key) : null,
  }));
}

/**
 * A listed supporter's portrait, small (160 px WebP), or null when the key names no portrait
 * that may be shown now (not approved, revoked, not opted in, hidden by staff). Checked on every request;
 * only the resized bytes are kept.
 */
export async function wallPortrait(db: Db, key: string): Promise<Buffer | null> {
  if (!WALL_KEY.test(key)) return null;
  const row = await db
    .selectFrom("badge_orders")
    .select(["id", "portrait_file"])
    .where("wall_key", "=", key)
    .where("status", "=", "approved")
    .where("badge_revoked_at", "is", null)
    .where("wall_opt_in", "=", 1)
    .where("wall_portrait", "=", 1)
    .where("wall_hidden", "=", 0)
    .executeTakeFirst();
  return row?.portrait_file ? smallPortrait(db, row.id, row.portrait_file, WALL_PORTRAIT_SIZE) : null;
}

/** Staff take a supporter off the wall (or put them back); logged, and the wall is redrawn at once. */
export async function setWallHidden(db: Db, id: string, hidden: boolean, actor: Actor) {
  const updated = await db.updateTable("badge_orders").set({ wall_hidden: hidden ? 1 : 0 }).where("id", "=", id).executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new DomainError("not_found", "Order not found.");
  clearPageCache("/event");
  await logAction(db, actor, {
    type: hidden ? "badge_orders.wall_hide" : "badge_orders.wall_show",
    message: `Order ${id} ${hidden ? "hidden from" : "shown again on"} the supporter wall`,
    meta: { id },
  });
}
