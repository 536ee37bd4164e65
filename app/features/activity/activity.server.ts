import { actorLabel, type Actor } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/db.server";
import type { ActivityItem } from "./activity";

/** Adds one entry to the activity log; returns its id. */
export async function recordActivity(
  db: Db,
  entry: { type: string; message: string; meta?: Record<string, unknown>; actorIp: string },
): Promise<number> {
  const result = await db
    .insertInto("activity")
    .values({
      ts: nowIso(),
      type: entry.type.slice(0, 64),
      message: entry.message.slice(0, 500),
      meta: JSON.stringify(entry.meta ?? {}),
      actor_ip: entry.actorIp.slice(0, 64),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(result.id);
}

/** An entry written by the domain function that did the work, for the actor who asked for it. */
export function logAction(
  db: Db,
  actor: Actor,
  entry: { type: string; message: string; meta?: Record<string, unknown> },
): Promise<number> {
  const meta = actor.kind === "system" ? { ...entry.meta, automatic: actor.reason } : entry.meta;
  return recordActivity(db, { ...entry, meta, actorIp: actorLabel(actor) });
}

/** The newest `limit` entries (of `type`, when given), oldest first as the log reads. */
export async function listActivity(
  db: Db,
  opts: { limit: number; type?: string },
): Promise<ActivityItem[]> {
  let q = db.selectFrom("activity").selectAll().orderBy("id", "desc").limit(opts.limit);
  if (opts.type) q = q.where("type", "=", opts.type);
  const rows = await q.execute();
  return rows.reverse().map((r) => ({
    ts: r.ts,
    type: r.type,
    message: r.message,
    meta: JSON.parse(r.meta) as Record<string, unknown>,
    actorIp: r.actor_ip,
  }));
}
