import { isDatabaseUnavailable } from "~/lib/core/database-unavailable";
import { sql } from "kysely";
import type { Db } from "~/lib/db/db.server";
import { greatest, lockedForUpdate, notIndexed, refHost } from "~/lib/db/dialect.server";
import { env } from "~/lib/server/env.server";

/**
 * The analytics summaries (tables in db/migrations/2026-11-21-analytics-rollup.ts) and the
 * retention roll-up.
 *
 * 1. Summarise: raw events past the `summarized_id` mark are added, a bounded batch per
 *    transaction, to the daily counts, the daily referrer counts and the per-client 'last seen'
 *    table; the mark moves in the same transaction, so a batch is counted exactly once.
 * 2. Roll up: every UTC day that starts before now - ANALYTICS_RETENTION_DAYS gets its distinct
 *    clients counted (analytics_daily.uniques) and its raw events deleted, in batches. The day is
 *    recorded as `rolling_day` first, so a run stopped half-way resumes without counting twice.
 *    Then 'last seen' entries older than the rolled-up days are pruned: no client id outlives
 *    the raw events it came from.
 *
 * Reports (reports.server.ts) read summaries up to the mark plus the few raw events after it,
 * inside one read transaction, so they are exact whenever they run.
 */

export const TRACKED_TYPES = ["page.view", "event", "blog.view"] as const;
export type TrackedType = (typeof TRACKED_TYPES)[number];
/** `type in (...)`: lets SQLite use the (type, ts) index for time ranges over every type. */
export const TYPE_LIST = sql.join(TRACKED_TYPES.map((t) => sql.lit(t)));

export const DAY_MS = 86_400_000;
export const dayOf = (iso: string) => iso.slice(0, 10);
export const dayStartIso = (day: string) => `${day}T00:00:00.000Z`;
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(dayStartIso(day)) + n * DAY_MS).toISOString().slice(0, 10);

/** Counts the rows where `condition` holds (portable: no sum over a boolean). */
export const countWhen = (condition: ReturnType<typeof sql>) => sql<number>`sum(case when ${condition} then 1 else 0 end)`;

export type RollupState = { summarizedId: number; rolledBefore: string; rollingDay: string | null };

/**
 * The roll-up's progress. `forUpdate` (inside a transaction that moves it) locks the row until
 * the transaction ends: two processes rolling up at once then take turns, and the second reads
 * where the first left off instead of counting the same batch again.
 */
export async function readRollupState(db: Db, { forUpdate = false } = {}): Promise<RollupState> {
  const row = await db
    .selectFrom("analytics_rollup_state")
    .select(["summarized_id", "rolled_before", "rolling_day"])
    .where("id", "=", 1)
    .$call((q) => (forUpdate ? q.$call(lockedForUpdate(db)) : q))
    .executeTakeFirst();
  return {
    summarizedId: row?.summarized_id ?? 0,
    rolledBefore: row?.rolled_before ?? "",
    rollingDay: row?.rolling_day ?? null,
  };
}

/**
 * The first day whose raw events are all still there ('' when nothing has been rolled up).
 * A day being rolled up counts as rolled: its totals and uniques are already in analytics_daily.
 */
export function rawFrom(state: RollupState): string {
  if (!state.rollingDay) return state.rolledBefore;
  const after = addDays(state.rollingDay, 1);
  return after > state.rolledBefore ? after : state.rolledBefore;
}

export const SUMMARY_BATCH = 5_000;
export const DELETE_BATCH = 5_000;

/** Adds the next batch of raw events to the summaries; returns how many it read (0: caught up). */
export async function summarizeBatch(db: Db, batch = SUMMARY_BATCH): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { summarizedId: from } = await readRollupState(trx, { forUpdate: true });
    const edge = await sql<{ upTo: number | null; n: number }>`
      select max(id) as "upTo", count(*) as n
      from (select id from analytics_events where id > ${from} order by id limit ${batch}) as batch`.execute(trx);
    const upTo = edge.rows[0]?.upTo;
    if (upTo == null) return 0;
    await sql`
      insert into analytics_daily (type, day, name, total, site, share, last_seen)
      select type, substr(ts, 1, 10), name, count(*), ${countWhen(sql`src = 'site'`)}, ${countWhen(sql`src = 'share'`)}, max(ts)
      from analytics_events ${notIndexed(trx)} where id > ${from} and id <= ${upTo}
      group by 1, 2, 3
      on conflict (type, day, name) do update set
        total = analytics_daily.total + excluded.total,
        site = analytics_daily.site + excluded.site,
        share = analytics_daily.share + excluded.share,
        last_seen = ${greatest(trx, sql`analytics_daily.last_seen`, sql`excluded.last_seen`)}`.execute(trx);
    await sql`
      insert into analytics_clients (type, name, cid, last_seen)
      select type, name, cid, max(ts)
      from analytics_events ${notIndexed(trx)} where id > ${from} and id <= ${upTo} and cid <> ''
      group by 1, 2, 3
      on conflict (type, name, cid) do update
        set last_seen = ${greatest(trx, sql`analytics_clients.last_seen`, sql`excluded.last_seen`)}`.execute(trx);
    await sql`
      insert into analytics_daily_refs (day, host, total)
      select day, host, count(*) from (
        select substr(ts, 1, 10) as day, ${refHost(trx)} as host
        from analytics_events ${notIndexed(trx)}
        where id > ${from} and id <= ${upTo} and type = 'page.view' and ref like 'http%://%'
      ) as refs where host <> ''
      group by 1, 2
      on conflict (day, host) do update set total = analytics_daily_refs.total + excluded.total`.execute(trx);
    await trx.updateTable("analytics_rollup_state").set({ summarized_id: upTo }).where("id", "=", 1).execute();
    return Number(edge.rows[0]!.n);
  });
}

/** The first day not rolled up once this run is done: every day that starts before the cutoff goes. */
export function rollBoundary(now: number, retentionDays: number): string {
  const cutoff = new Date(now - retentionDays * DAY_MS).toISOString();
  const day = dayOf(cutoff);
  return cutoff > dayStartIso(day) ? addDays(day, 1) : day;
}

type Control = { stopped?: () => boolean };
const pause = () => new Promise<void>((r) => setImmediate(r));

/**
 * Step 1 of rolling up `day`: its distinct clients per type and name, stored with the day's
 * counts. False when another process is rolling it up or has (counting again from the raw
 * events it is deleting would lose clients): this run then stops.
 */
async function countDayUniques(db: Db, day: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { summarizedId, rollingDay, rolledBefore } = await readRollupState(trx, { forUpdate: true });
    if (rollingDay !== null || day < rolledBefore) return false;
    await sql`
      insert into analytics_daily (type, day, name, last_seen, uniques)
      select type, cast(${day} as text), name, max(ts), count(distinct nullif(cid, ''))
      from analytics_events
      where type in (${TYPE_LIST}) and ts >= ${dayStartIso(day)} and ts < ${dayStartIso(addDays(day, 1))}
        and id <= ${summarizedId}
      group by type, name
      on conflict (type, day, name) do update set uniques = excluded.uniques`.execute(trx);
    await trx.updateTable("analytics_rollup_state").set({ rolling_day: day }).where("id", "=", 1).execute();
    return true;
  });
}

/** Deletes summarised raw events older than `before` (a day), a batch per statement. */
async function deleteRawBefore(db: Db, before: string, ctl: Control, from = "") {
  let deleted = 0;
  for (;;) {
    if (ctl.stopped?.()) break;
    const { summarizedId } = await readRollupState(db);
    const r = await sql`
      delete from analytics_events where id in (
        select id from analytics_events
        where type in (${TYPE_LIST}) and ts >= ${from} and ts < ${dayStartIso(before)} and id <= ${summarizedId}
        limit ${DELETE_BATCH})`.execute(db);
    const n = Number(r.numAffectedRows ?? 0);
    deleted += n;
    if (n < DELETE_BATCH) break;
    await pause();
  }
  return deleted;
}

async function oldestRawDay(db: Db, from: string): Promise<string | undefined> {
  let oldest: string | undefined;
  for (const type of TRACKED_TYPES) {
    const row = await db
      .selectFrom("analytics_events")
      .select((eb) => eb.fn.min("ts").as("ts"))
      .where("type", "=", type)
      .where("ts", ">=", from)
      .executeTakeFirst();
    if (row?.ts && (!oldest || row.ts < oldest)) oldest = row.ts;
  }
  return oldest ? dayOf(oldest) : undefined;
}

export type RollupResult = { summarized: number; rolledDays: string[]; deleted: number; pruned: number };

/** Summarises everything new, then rolls up the days past retention. Safe to run at any time, and again. */
export async function runAnalyticsRollup(
  db: Db,
  opts: { now?: number; retentionDays: number } & Control,
): Promise<RollupResult> {
  const now = opts.now ?? Date.now();
  const result: RollupResult = { summarized: 0, rolledDays: [], deleted: 0, pruned: 0 };
  for (;;) {
    if (opts.stopped?.()) return result;
    const n = await summarizeBatch(db);
    result.summarized += n;
    if (n === 0) break;
    await pause();
  }

  const boundary = rollBoundary(now, opts.retentionDays);
  let state = await readRollupState(db);
  // A day whose roll-up was interrupted: its uniques are stored, finish deleting it.
  if (state.rollingDay) {
    result.deleted += await deleteRawBefore(db, addDays(state.rollingDay, 1), opts, dayStartIso(state.rollingDay));
    if (opts.stopped?.()) return result;
    await finishDay(db, state.rollingDay);
    result.rolledDays.push(state.rollingDay);
    state = await readRollupState(db);
  }
  // Days before rolled_before are done; stragglers there are deleted below, their uniques kept.
  let day = await oldestRawDay(db, state.rolledBefore ? dayStartIso(state.rolledBefore) : "");
  while (day && day < boundary) {
    if (opts.stopped?.()) return result;
    if (!(await countDayUniques(db, day))) return result;
    result.deleted += await deleteRawBefore(db, addDays(day, 1), opts, dayStartIso(day));
    if (opts.stopped?.()) return result;
    await finishDay(db, day);
    result.rolledDays.push(day);
    day = await oldestRawDay(db, dayStartIso(addDays(day, 1)));
    await pause();
  }
  // Stragglers: events stamped with a rolled-up day that arrived after it was rolled up.
  // (rolled_before only moves past days that had events: events written later for an older,
  // empty day, such as imported history, are still rolled up day by day.)
  result.deleted += await deleteRawBefore(db, boundary, opts);
  result.pruned = await pruneClients(db, boundary, opts);
  return result;
}

async function finishDay(db: Db, day: string) {
  await db.transaction().execute(async (trx) => {
    const { rolledBefore } = await readRollupState(trx, { forUpdate: true });
    const next = addDays(day, 1);
    await trx
      .updateTable("analytics_rollup_state")
      .set({ rolled_before: next > rolledBefore ? next : rolledBefore, rolling_day: null })
      .where("id", "=", 1)
      .execute();
  });
}

/** Drops 'last seen' entries from before `before` (a day), per type and name, in batches. */
async function pruneClients(db: Db, before: string, ctl: Control) {
  if (!before) return 0;
  const cut = dayStartIso(before);
  const names = await db
    .selectFrom("analytics_daily")
    .select(["type", "name"])
    .distinct()
    .where("day", "<", before)
    .execute();
  let pruned = 0;
  for (const { type, name } of names) {
    for (;;) {
      if (ctl.stopped?.()) return pruned;
      const r = await sql`
        delete from analytics_clients where (type, name, cid) in (
          select type, name, cid from analytics_clients
          where type = ${type} and name = ${name} and last_seen < ${cut}
          limit ${DELETE_BATCH})`.execute(db);
      const n = Number(r.numAffectedRows ?? 0);
      pruned += n;
      if (n < DELETE_BATCH) break;
      await pause();
    }
  }
  return pruned;
}

// ---------------------------------------------------------------- the timer in the server

let timers: NodeJS.Timeout[] = [];
let running: Promise<void> | undefined;
let stopping = false;

/**
 * Runs the roll-up shortly after start-up and then every `everyMs` (15 minutes): a run that
 * finds nothing new costs a few index look-ups. Timers are unref'd; one run at a time.
 */
export function startAnalyticsRollup(db: Db, { firstDelayMs = 5_000, everyMs = 15 * 60_000 } = {}) {
  stopping = false;
  const tick = () => {
    if (running || stopping) return;
    running = (async () => {
      const t0 = performance.now();
      try {
        const r = await runAnalyticsRollup(db, {
          retentionDays: env().analyticsRetentionDays,
          stopped: () => stopping,
        });
        if (r.summarized > 10_000 || r.rolledDays.length > 0) {
          console.log(
            `[analytics] summarised ${r.summarized} events, rolled up ${r.rolledDays.length} day(s) ` +
              `(${r.deleted} raw events deleted, ${r.pruned} client entries pruned) in ${Math.round(performance.now() - t0)} ms`,
          );
        }
      } catch (e) {
        if (!stopping && !isDatabaseUnavailable(e)) console.error("[analytics] roll-up failed", e);
      } finally {
        running = undefined;
      }
    })();
  };
  const first = setTimeout(tick, firstDelayMs);
  const every = setInterval(tick, everyMs);
  first.unref();
  every.unref();
  timers = [first, every];
}

/** Stops the timer and waits for a run under way to reach a batch boundary. */
export async function stopAnalyticsRollup() {
  stopping = true;
  for (const t of timers) clearTimeout(t);
  timers = [];
  await running;
}
