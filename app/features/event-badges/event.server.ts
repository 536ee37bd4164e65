import type { Actor } from "~/lib/core/actor";
import { nowIso, type Db } from "~/lib/db/db.server";
import { clearPageCache } from "~/lib/http/page-cache.server";
import { logAction } from "../activity/activity.server";
import { DEFAULT_EVENT, type EventRecord } from "./event";
import { recordOfInput, type EventInput } from "./event.schema";
import { TIERS } from "./tiers";

/** The event record (one row); the first concert's figures if the row is somehow missing. */
export async function getEvent(db: Db): Promise<EventRecord> {
  const row = await db.selectFrom("event_record").selectAll().where("id", "=", 1).executeTakeFirst();
  if (!row) return DEFAULT_EVENT;
  let goals: Record<string, unknown> = {};
  try {
    goals = JSON.parse(row.tier_goals) as Record<string, unknown>;
  } catch {
    // A damaged goals column falls back to the defaults below, tier by tier.
  }
  return {
    title: row.title,
    date: row.date,
    time: row.start_time,
    venue: row.venue,
    salesOpen: row.sales_open,
    raiseTarget: Number(row.raise_target),
    tierGoals: Object.fromEntries(
      TIERS.map((t) => [t.key, typeof goals[t.key] === "number" ? (goals[t.key] as number) : DEFAULT_EVENT.tierGoals[t.key]]),
    ) as EventRecord["tierGoals"],
    updatedAt: row.updated_at,
  };
}

/** Saves the staff form's values; the event pages (goal bar, wall) are drawn anew at once. */
export async function saveEvent(db: Db, input: EventInput, actor: Actor): Promise<EventRecord> {
  const e = recordOfInput(input);
  const values = {
    title: e.title,
    date: e.date,
    start_time: e.time,
    venue: e.venue,
    sales_open: e.salesOpen,
    raise_target: e.raiseTarget,
    tier_goals: JSON.stringify(e.tierGoals),
    updated_at: nowIso(),
  };
  await db
    .insertInto("event_record")
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column("id").doUpdateSet(values))
    .execute();
  // The pages that name the event are /event and those under it: forget them.
  clearPageCache("/event");
  await logAction(db, actor, { type: "event.update", message: `Event set to ${e.title} on ${e.date}`, meta: { ...values, tier_goals: e.tierGoals } });
  return getEvent(db);
}
