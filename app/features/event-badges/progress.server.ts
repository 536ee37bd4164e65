import type { Db } from "~/lib/db/db.server";
import type { EventProgress } from "./progress";
import { getEvent } from "./event.server";
import { goalOf, type EventRecord } from "./event";
import { TIERS } from "./tiers";

/**
 * The figures of the goal bar: approved orders whose badge stands (a revoked badge, refunded or
 * not honoured, counts neither as a supporter nor as money raised). Pass the event record when
 * the caller has read it already.
 */
export async function eventProgress(db: Db, known?: EventRecord): Promise<EventProgress> {
  const rows = await db
    .selectFrom("badge_orders")
    .select((eb) => ["tier_key", eb.fn.countAll<number>().as("supporters"), eb.fn.sum<number>("amount").as("raised")])
    .where("status", "=", "approved")
    .where("badge_revoked_at", "is", null)
    .groupBy("tier_key")
    .execute();
  const event = known ?? (await getEvent(db));
  const byTier = new Map(rows.map((r) => [r.tier_key, r]));
  return {
    target: event.raiseTarget,
    raised: rows.reduce((sum, r) => sum + Number(r.raised ?? 0), 0),
    currency: "KES",
    tiers: TIERS.map((t) => ({ key: t.key, name: t.name, goal: goalOf(event, t.key), supporters: Number(byTier.get(t.key)?.supporters ?? 0) })),
  };
}
