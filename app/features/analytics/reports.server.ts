import { sql, type RawBuilder } from "kysely";
import type { Db } from "~/lib/db/db.server";
import { notIndexed, refHost } from "~/lib/db/dialect.server";
import {
  addDays,
  DAY_MS,
  dayOf,
  dayStartIso,
  rawFrom,
  readRollupState,
  countWhen,
  TYPE_LIST,
  type RollupState,
  type TrackedType,
} from "./rollup.server";
import type { AnalyticsQuery } from "./reports.schema";
import type { DayCount, Referrer } from "./reports";

/**
 * What staff read about the site's use (spec sections 3 and 7), from the summaries that
 * rollup.server.ts keeps plus the raw events newer than them. Each report runs in one read
 * transaction, so a roll-up batch can never land between its queries.
 *
 * 'since' is a number of days before now (0 = all time). Over the raw period (the last
 * ANALYTICS_RETENTION_DAYS days) it is exact to the millisecond and 'unique' is the exact number
 * of distinct client ids. Reaching into rolled-up days, those days count whole (UTC), and each
 * contributes its own distinct clients of that day: a client seen on two rolled-up days, or on
 * one and in the raw period, counts once per such day, so 'unique' is then an upper bound.
 */

export type Tally = { name: string; total: number; unique: number; site: number; share: number; lastSeen: string };
export const REPORT_LIMIT = 200;

type Part = { name: string; total: number; site: number; share: number; lastSeen: string | null };
type Uniq = { name: string; n: number };

/** The window a report covers, against the roll-up state. */
function windowOf(state: RollupState, sinceDays: number, now: number) {
  const from = sinceDays === 0 ? "" : new Date(now - sinceDays * DAY_MS).toISOString();
  const raw = rawFrom(state);
  // Exact when the window starts inside the raw period; whole days otherwise.
  const exact = from !== "" && (raw === "" || from >= dayStartIso(raw));
  return { from, raw, exact, w: state.summarizedId };
}

const nowMs = (now?: number) => now ?? Date.now();

function merge(map: Map<string, Tally>, rows: Part[]) {
  for (const r of rows) {
    const t = map.get(r.name) ?? { name: r.name, total: 0, unique: 0, site: 0, share: 0, lastSeen: "" };
    t.total += Number(r.total);
    t.site += Number(r.site);
    t.share += Number(r.share);
    if (r.lastSeen && r.lastSeen > t.lastSeen) t.lastSeen = r.lastSeen;
    map.set(r.name, t);
  }
}

function addUnique(map: Map<string, Tally>, rows: Uniq[]) {
  for (const r of rows) {
    const t = map.get(r.name);
    if (t) t.unique += Number(r.n);
  }
}

/** Views, distinct clients, site/share split and last seen per name of one type. */
export async function tallyByName(
  db: Db,
  opts: { type: TrackedType; sinceDays: number; now?: number; rankBy?: "total" | "unique"; limit?: number },
): Promise<Tally[]> {
  const { type } = opts;
  const map = new Map<string, Tally>();
  await db.transaction().execute(async (trx) => {
    const state = await readRollupState(trx);
    const { from, raw, exact, w } = windowOf(state, opts.sinceDays, nowMs(opts.now));
    const totals = (where: RawBuilder<unknown>) =>
      sql<Part>`
        select name, count(*) as total, ${countWhen(sql`src = 'site'`)} as site, ${countWhen(sql`src = 'share'`)} as share, max(ts) as "lastSeen"
        from analytics_events where type = ${type} and ${where} group by name`
        .execute(trx)
        .then((r) => r.rows);
    // Raw events newer than the summaries: a short rowid range. NOT INDEXED keeps SQLite from
    // walking the (type, ts) index over the whole period instead.
    const tailTotals = (since: string) =>
      sql<Part>`
        select name, count(*) as total, ${countWhen(sql`src = 'site'`)} as site, ${countWhen(sql`src = 'share'`)} as share, max(ts) as "lastSeen"
        from analytics_events ${notIndexed(trx)} where id > ${w} and type = ${type} and ts >= ${since} group by name`
        .execute(trx)
        .then((r) => r.rows);
    // Distinct clients in raw events newer than the summaries, not already seen since `seenFrom`.
    const tailNew = (seenFrom: string) =>
      sql<Uniq>`
        select e.name, count(distinct e.cid) as n from analytics_events e ${notIndexed(trx)}
        where e.id > ${w} and e.type = ${type} and e.ts >= ${seenFrom} and e.cid <> ''
          and not exists (
            select 1 from analytics_clients c
            where c.type = e.type and c.name = e.name and c.cid = e.cid and c.last_seen >= ${seenFrom})
        group by e.name`
        .execute(trx)
        .then((r) => r.rows);
    const seenSince = (seenFrom: string, firstDay: string) =>
      sql<Uniq>`
        select d.name, (
          select count(*) from analytics_clients c
          where c.type = ${type} and c.name = d.name and c.last_seen >= ${seenFrom}
        ) as n
        from (select distinct name from analytics_daily where type = ${type} and day >= ${firstDay}) d`
        .execute(trx)
        .then((r) => r.rows);

    if (exact) {
      const firstDay = dayOf(from);
      const nextDay = dayStartIso(addDays(firstDay, 1));
      // Whole days after the first one, from the summaries.
      const days = await sql<Part>`
        select name, sum(total) as total, sum(site) as site, sum(share) as share, max(last_seen) as "lastSeen"
        from analytics_daily where type = ${type} and day > ${firstDay} group by name`.execute(trx);
      merge(map, days.rows);
      // The rest of the first day, and everything newer than the summaries, from raw events.
      merge(map, await totals(sql`ts >= ${from} and ts < ${nextDay}`));
      merge(map, await tailTotals(nextDay));
      addUnique(map, await seenSince(from, firstDay));
      addUnique(map, await tailNew(from));
    } else {
      const firstDay = from ? dayOf(from) : "";
      const days = await sql<Part & { rolledUniques: number }>`
        select name, sum(total) as total, sum(site) as site, sum(share) as share, max(last_seen) as "lastSeen",
          sum(case when day < ${raw} then uniques else 0 end) as "rolledUniques"
        from analytics_daily where type = ${type} and day >= ${firstDay} group by name`.execute(trx);
      merge(map, days.rows);
      addUnique(map, days.rows.map((r) => ({ name: r.name, n: r.rolledUniques })));
      const rawStart = raw ? dayStartIso(raw) : "";
      merge(map, await tailTotals(firstDay ? dayStartIso(firstDay) : ""));
      addUnique(map, await seenSince(rawStart, raw));
      addUnique(map, await tailNew(rawStart));
    }
  });
  const rank = opts.rankBy ?? "total";
  return [...map.values()]
    .filter((t) => t.total > 0)
    .sort((a, b) => b[rank] - a[rank] || b.total - a.total || (a.name < b.name ? -1 : 1))
    .slice(0, opts.limit ?? REPORT_LIMIT);
}

/** Distinct clients with any tracked event in the last `windowMinutes` minutes (the edge included). */
export async function activeNow(db: Db, opts: { windowMinutes: number; now?: number }): Promise<number> {
  const from = new Date(nowMs(opts.now) - opts.windowMinutes * 60_000).toISOString();
  const r = await sql<{ n: number }>`
    select count(distinct cid) as n from analytics_events
    where type in (${TYPE_LIST}) and ts >= ${from} and cid <> ''`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/** Page views per UTC day for the last `days` days, today included, zeros filled in. */
export async function dailyPageViews(db: Db, opts: { days?: number; now?: number } = {}): Promise<DayCount[]> {
  const count = opts.days ?? 30;
  const today = dayOf(new Date(nowMs(opts.now)).toISOString());
  const first = addDays(today, -(count - 1));
  const byDay = new Map<string, number>();
  await db.transaction().execute(async (trx) => {
    const { summarizedId } = await readRollupState(trx);
    const summed = await sql<{ day: string; n: number }>`
      select day, sum(total) as n from analytics_daily
      where type = 'page.view' and day >= ${first} group by day`.execute(trx);
    const tail = await sql<{ day: string; n: number }>`
      select substr(ts, 1, 10) as day, count(*) as n from analytics_events ${notIndexed(trx)}
      where id > ${summarizedId} and type = 'page.view' and ts >= ${dayStartIso(first)} group by 1`.execute(trx);
    for (const r of [...summed.rows, ...tail.rows]) byDay.set(r.day, (byDay.get(r.day) ?? 0) + Number(r.n));
  });
  return Array.from({ length: count }, (_, i) => {
    const day = addDays(first, i);
    return { day, views: byDay.get(day) ?? 0 };
  });
}

/** Page views by referring host (host only), busiest first, leaving out `exclude` (this site). */
export async function topReferrers(
  db: Db,
  opts: { sinceDays: number; now?: number; exclude?: string[]; limit?: number },
): Promise<Referrer[]> {
  const map = new Map<string, number>();
  const add = (rows: { host: string; n: number }[]) => {
    for (const r of rows) map.set(r.host, (map.get(r.host) ?? 0) + Number(r.n));
  };
  await db.transaction().execute(async (trx) => {
    const state = await readRollupState(trx);
    const { from, exact, w } = windowOf(state, opts.sinceDays, nowMs(opts.now));
    const rawHosts = (where: RawBuilder<unknown>, tail = false) =>
      sql<{ host: string; n: number }>`
        select host, count(*) as n from (
          select ${refHost(trx)} as host from analytics_events ${tail ? notIndexed(trx) : sql``}
          where type = 'page.view' and ref like 'http%://%' and ${where}
        ) as refs where host <> '' group by host`
        .execute(trx)
        .then((r) => r.rows);
    const firstDay = from ? dayOf(from) : "";
    if (exact) {
      const nextDay = dayStartIso(addDays(firstDay, 1));
      add((await sql<{ host: string; n: number }>`
        select host, sum(total) as n from analytics_daily_refs where day > ${firstDay} group by host`.execute(trx)).rows);
      add(await rawHosts(sql`ts >= ${from} and ts < ${nextDay}`));
      add(await rawHosts(sql`id > ${w} and ts >= ${nextDay}`, true));
    } else {
      add((await sql<{ host: string; n: number }>`
        select host, sum(total) as n from analytics_daily_refs where day >= ${firstDay} group by host`.execute(trx)).rows);
      add(await rawHosts(sql`id > ${w} and ts >= ${firstDay ? dayStartIso(firstDay) : ""}`, true));
    }
  });
  const exclude = new Set((opts.exclude ?? []).map((h) => h.toLowerCase()));
  return [...map]
    .filter(([host]) => !exclude.has(host))
    .map(([host, views]) => ({ host, views }))
    .sort((a, b) => b.views - a.views || (a.host < b.host ? -1 : 1))
    .slice(0, opts.limit ?? 10);
}

/** The activity types recorded so far, for the log's filter. */
export async function activityTypes(db: Db): Promise<string[]> {
  const rows = await db.selectFrom("activity").select("type").distinct().orderBy("type").execute();
  return rows.map((r) => r.type);
}

// ---------------------------------------------------------------- GET /api/analytics.php

export type BlogViewsRow = { slug: string; total: number; unique: number; site: number; share: number; lastSeen: string };
export type PageRow = { page: string; total: number; unique: number; lastSeen: string };
export type EventRow = { name: string; total: number; unique: number; lastSeen: string };

export const blogViewsRow = (t: Tally): BlogViewsRow => ({
  slug: t.name,
  total: t.total,
  unique: t.unique,
  site: t.site,
  share: t.share,
  lastSeen: t.lastSeen,
});
export const pageRow = (t: Tally): PageRow => ({ page: t.name, total: t.total, unique: t.unique, lastSeen: t.lastSeen });
export const eventRow = (t: Tally): EventRow => ({ name: t.name, total: t.total, unique: t.unique, lastSeen: t.lastSeen });

/**
 * The legacy JSON of each mode (spec sections 3 and 7, plus `unique`). `unique=1` ranks the
 * rows by distinct clients instead of views; every row always carries both counts.
 */
export async function analyticsReply(db: Db, q: AnalyticsQuery, now?: number) {
  if (q.mode === "active_now") return { ok: true as const, total: await activeNow(db, { windowMinutes: q.window, now }) };
  const base = { sinceDays: q.since, rankBy: q.unique ? ("unique" as const) : ("total" as const), now };
  switch (q.mode) {
    case "blog_views":
      return { ok: true as const, items: (await tallyByName(db, { ...base, type: "blog.view" })).map(blogViewsRow) };
    case "page_views":
      return { ok: true as const, items: (await tallyByName(db, { ...base, type: "page.view" })).map(pageRow) };
    case "events":
      return { ok: true as const, items: (await tallyByName(db, { ...base, type: "event" })).map(eventRow) };
  }
}
