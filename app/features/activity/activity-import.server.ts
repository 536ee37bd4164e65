import type { Db } from "~/lib/db/db.server";

/**
 * The activity log's part of moving the old site in (app/features/legacy-import): the old
 * admin_activity.jsonl's entries, at their own times. They are numbered below every entry this
 * site wrote (the log reads by number), in time order, so the log still reads oldest to newest.
 */
export async function importActivity(db: Db, entries: { ts: string; type: string; message: string; meta: Record<string, unknown>; actorIp: string }[]) {
  if (entries.length === 0) return;
  const first = await db.selectFrom("activity").select((eb) => eb.fn.min("id").as("id")).executeTakeFirst();
  const below = Math.min(Number(first?.id ?? 1), 1);
  const sorted = [...entries].sort((a, b) => a.ts.localeCompare(b.ts));
  const rows = sorted.map((e, i) => ({
    id: below - sorted.length + i,
    ts: e.ts,
    type: e.type.slice(0, 64),
    message: e.message.slice(0, 500),
    meta: JSON.stringify(e.meta),
    actor_ip: e.actorIp.slice(0, 64),
  }));
  for (let i = 0; i < rows.length; i += 200) await db.insertInto("activity").values(rows.slice(i, i + 200)).execute();
}
