import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { freshApp, testDatabaseKind } from "../../../tests/support/reset";
import { writeEvents, type TrackRow } from "./analytics.server";
import { activeNow, dailyPageViews, tallyByName, topReferrers, type Tally } from "./reports.server";
import {
  addDays,
  DAY_MS,
  dayOf,
  dayStartIso,
  DELETE_BATCH,
  readRollupState,
  rollBoundary,
  runAnalyticsRollup,
  summarizeBatch,
  TRACKED_TYPES,
  type TrackedType,
} from "./rollup.server";

const NOW = Date.parse("2026-03-15T10:20:30.456Z");
const iso = (ms: number) => new Date(ms).toISOString();
let db: Db;

beforeEach(async () => {
  db = await freshApp();
});

/** mulberry32, so every run writes the same events. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES: Record<TrackedType, string[]> = {
  "page.view": ["home", "about", "event.badges", "vespers"],
  event: ["cta.join", "badge.view", "merch.cart.add"],
  "blog.view": ["friday-night-on-the-walk", "campus-mission-week"],
};
const REFS = ["", "", "https://www.google.com/search", "https://l.facebook.com:8443/l.php", "/about", "http://site.test/blogs"];

/** Events over the 12 days before NOW (some in the future by a second), a few without a client id. */
function someEvents(n: number, seed = 7, days = 12): TrackRow[] {
  const rand = prng(seed);
  const pick = <T,>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  return Array.from({ length: n }, () => {
    const type = pick([...TRACKED_TYPES]);
    const ts = iso(NOW - Math.floor(rand() * days * DAY_MS) + (rand() < 0.01 ? 1000 : 0));
    return {
      ts,
      type,
      name: pick(NAMES[type]),
      path: "",
      ref: type === "page.view" ? pick(REFS) : "",
      src: type === "blog.view" ? pick(["site", "site", "share"]) : "",
      meta: "{}",
      cid: rand() < 0.05 ? "" : `client${String(Math.floor(rand() * 15)).padStart(4, "0")}`,
    };
  });
}

/** What a report must say, counted the slow way from the events themselves. */
function expected(events: TrackRow[], type: TrackedType, since: number, rankBy: "total" | "unique" = "total"): Tally[] {
  const from = since === 0 ? "" : iso(NOW - since * DAY_MS);
  const map = new Map<string, Tally & { cids: Set<string> }>();
  for (const e of events) {
    if (e.type !== type || e.ts < from) continue;
    const t = map.get(e.name) ?? { name: e.name, total: 0, unique: 0, site: 0, share: 0, lastSeen: "", cids: new Set<string>() };
    t.total++;
    if (e.src === "site") t.site++;
    if (e.src === "share") t.share++;
    if (e.ts > t.lastSeen) t.lastSeen = e.ts;
    if (e.cid) t.cids.add(e.cid);
    map.set(e.name, t);
  }
  return [...map.values()]
    .map(({ cids, ...t }) => ({ ...t, unique: cids.size }))
    .sort((a, b) => b[rankBy] - a[rankBy] || b.total - a.total || (a.name < b.name ? -1 : 1));
}

const SINCES = [0, 1, 2, 3, 5, 7, 11, 12, 30];

async function expectReportsToMatch(events: TrackRow[]) {
  for (const type of TRACKED_TYPES) {
    for (const since of SINCES) {
      const got = await tallyByName(db, { type, sinceDays: since, now: NOW });
      expect(got, `${type} since ${since}`).toEqual(expected(events, type, since));
    }
  }
}

describe("reports against a count of the raw events", () => {
  it("match before, during and after summarising, and with new events after it", async () => {
    // Written out of time order: summaries follow ids, not timestamps.
    const events = someEvents(1500);
    await writeEvents(db, events);
    await expectReportsToMatch(events);

    expect(await summarizeBatch(db, 400)).toBe(400);
    await expectReportsToMatch(events);

    await runAnalyticsRollup(db, { now: NOW, retentionDays: 90 });
    expect((await readRollupState(db)).summarizedId).toBe(1500);
    await expectReportsToMatch(events);

    const more = someEvents(300, 99, 2);
    await writeEvents(db, more);
    await expectReportsToMatch([...events, ...more]);
  });

  it("rank by unique visitors when asked", async () => {
    const events = someEvents(800, 3);
    await writeEvents(db, events);
    await runAnalyticsRollup(db, { now: NOW, retentionDays: 90 });
    for (const type of TRACKED_TYPES) {
      expect(await tallyByName(db, { type, sinceDays: 7, now: NOW, rankBy: "unique" })).toEqual(expected(events, type, 7, "unique"));
    }
  });

  it("count a client once per name however often it comes back, and no client id as no visitor", async () => {
    const t = iso(NOW - 60_000);
    const row = (cid: string, name = "home"): TrackRow => ({ ts: t, type: "page.view", name, path: "/", ref: "", src: "", meta: "{}", cid });
    await writeEvents(db, [row("aaaaaaaa"), row("aaaaaaaa"), row("bbbbbbbb"), row(""), row("aaaaaaaa", "about")]);
    await summarizeBatch(db, 2);
    const got = await tallyByName(db, { type: "page.view", sinceDays: 1, now: NOW });
    expect(got.map(({ name, total, unique }) => ({ name, total, unique }))).toEqual([
      { name: "home", total: 4, unique: 2 },
      { name: "about", total: 1, unique: 1 },
    ]);
  });
});

describe("active now", () => {
  it("counts distinct clients from exactly `window` minutes ago, and not a millisecond before", async () => {
    const row = (ms: number, cid: string, type: TrackedType = "page.view"): TrackRow => ({
      ts: iso(ms),
      type,
      name: "home",
      path: "/",
      ref: "",
      src: "",
      meta: "{}",
      cid,
    });
    await writeEvents(db, [
      row(NOW - 5 * 60_000, "edge0001"),
      row(NOW - 5 * 60_000 - 1, "before01"),
      row(NOW - 60_000, "edge0001", "event"),
      row(NOW - 30_000, "blogger1", "blog.view"),
      row(NOW - 10_000, ""),
      row(NOW - 1440 * 60_000, "dayago01"),
    ]);
    expect(await activeNow(db, { windowMinutes: 5, now: NOW })).toBe(2);
    expect(await activeNow(db, { windowMinutes: 1, now: NOW })).toBe(2);
    expect(await activeNow(db, { windowMinutes: 1440, now: NOW })).toBe(4);
    await runAnalyticsRollup(db, { now: NOW, retentionDays: 90 });
    expect(await activeNow(db, { windowMinutes: 5, now: NOW })).toBe(2);
  });
});

describe("daily page views and referrers", () => {
  it("fill 30 UTC days, today last, from summaries and newer raw events", async () => {
    const events = someEvents(600, 11);
    await writeEvents(db, events.slice(0, 400));
    await runAnalyticsRollup(db, { now: NOW, retentionDays: 90 });
    await writeEvents(db, events.slice(400));
    const days = await dailyPageViews(db, { now: NOW });
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.day).toBe("2026-03-15");
    expect(days[0]!.day).toBe("2026-02-14");
    for (const d of days) {
      expect(d.views, d.day).toBe(events.filter((e) => e.type === "page.view" && dayOf(e.ts) === d.day).length);
    }
  });

  it("count hosts only, without ports, paths or this site", async () => {
    const events = someEvents(900, 5);
    await writeEvents(db, events.slice(0, 500));
    await summarizeBatch(db, 300);
    await writeEvents(db, events.slice(500));
    const count = (host: string, since: number) =>
      events.filter(
        (e) => e.type === "page.view" && e.ref.includes(`//${host}`) && (since === 0 || e.ts >= iso(NOW - since * DAY_MS)),
      ).length;
    for (const since of [0, 1, 3, 30]) {
      const got = await topReferrers(db, { sinceDays: since, now: NOW, exclude: ["site.test"] });
      const want = [
        { host: "www.google.com", views: count("www.google.com", since) },
        { host: "l.facebook.com", views: count("l.facebook.com", since) },
      ]
        .filter((r) => r.views > 0)
        .sort((a, b) => b.views - a.views || (a.host < b.host ? -1 : 1));
      expect(got, `since ${since}`).toEqual(want);
    }
  });
});

describe("the retention roll-up", () => {
  const RETENTION = 5;

  /** Rolled-up days count whole, each adding its own distinct clients; the raw period is exact. */
  function expectedAfterRollup(events: TrackRow[], type: TrackedType, since: number): Tally[] {
    const boundary = rollBoundary(NOW, RETENTION);
    const from = since === 0 ? "" : iso(NOW - since * DAY_MS);
    const firstDay = from ? dayOf(from) : "";
    const inWindow = events.filter((e) => e.type === type && (from >= dayStartIso(boundary) ? e.ts >= from : dayOf(e.ts) >= firstDay));
    const base = expected(inWindow, type, 0);
    if (from >= dayStartIso(boundary)) return base;
    const raw = expected(events.filter((e) => e.ts >= dayStartIso(boundary)), type, 0);
    return base
      .map((t) => {
        let unique = raw.find((r) => r.name === t.name)?.unique ?? 0;
        for (let d = firstDay || dayOf(events.map((e) => e.ts).sort()[0]!); d < boundary; d = addDays(d, 1)) {
          unique += new Set(inWindow.filter((e) => e.name === t.name && dayOf(e.ts) === d && e.cid).map((e) => e.cid)).size;
        }
        return { ...t, unique };
      })
      .sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : 1));
  }

  it("deletes raw events of every day that starts before the cutoff, and keeps every total", async () => {
    const events = someEvents(2000, 21);
    await writeEvents(db, events);
    const result = await runAnalyticsRollup(db, { now: NOW, retentionDays: RETENTION });
    const boundary = rollBoundary(NOW, RETENTION);
    expect(boundary).toBe("2026-03-11"); // the cutoff is 10 March 10:20; that whole day goes
    expect(result.rolledDays).toEqual(["2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"]);
    const left = await db.selectFrom("analytics_events").select(["ts"]).orderBy("ts").execute();
    expect(left.length).toBe(events.filter((e) => e.ts >= dayStartIso(boundary)).length);
    expect(left[0]!.ts >= dayStartIso(boundary)).toBe(true);
    expect(result.deleted).toBe(events.length - left.length);

    // No client id is kept for longer than the raw events it came from.
    const oldest = await db.selectFrom("analytics_clients").select((eb) => eb.fn.min("last_seen").as("t")).executeTakeFirst();
    expect(oldest!.t! >= dayStartIso(boundary)).toBe(true);

    for (const type of TRACKED_TYPES) {
      for (const since of SINCES) {
        expect(await tallyByName(db, { type, sinceDays: since, now: NOW }), `${type} since ${since}`).toEqual(
          expectedAfterRollup(events, type, since),
        );
      }
      // All-time totals are what they were before the roll-up.
      const allTime = await tallyByName(db, { type, sinceDays: 0, now: NOW });
      expect(allTime.map(({ name, total, site, share, lastSeen }) => ({ name, total, site, share, lastSeen }))).toEqual(
        expected(events, type, 0).map(({ name, total, site, share, lastSeen }) => ({ name, total, site, share, lastSeen })),
      );
    }
    const days = await dailyPageViews(db, { now: NOW });
    for (const d of days) expect(d.views).toBe(events.filter((e) => e.type === "page.view" && dayOf(e.ts) === d.day).length);
  });

  it("is idempotent: a second run changes nothing", async () => {
    await writeEvents(db, someEvents(1200, 4));
    await runAnalyticsRollup(db, { now: NOW, retentionDays: RETENTION });
    const snapshot = async () => ({
      daily: await db.selectFrom("analytics_daily").selectAll().orderBy("type").orderBy("day").orderBy("name").execute(),
      refs: await db.selectFrom("analytics_daily_refs").selectAll().orderBy("day").orderBy("host").execute(),
      clients: await db.selectFrom("analytics_clients").selectAll().orderBy("type").orderBy("name").orderBy("cid").execute(),
      raw: await db.selectFrom("analytics_events").select("id").orderBy("id").execute(),
      state: await readRollupState(db),
    });
    const first = await snapshot();
    const again = await runAnalyticsRollup(db, { now: NOW, retentionDays: RETENTION });
    expect(again).toEqual({ summarized: 0, rolledDays: [], deleted: 0, pruned: 0 });
    expect(await snapshot()).toEqual(first);
  });

  // The stop condition peeks with a second, synchronous SQLite connection.
  it.skipIf(testDatabaseKind === "postgres")("resumes a run stopped half-way through deleting a day without counting anything twice", async () => {
    // One old day with more events than a delete batch, and some recent ones.
    const oldDay = iso(NOW - 9 * DAY_MS);
    const big: TrackRow[] = Array.from({ length: DELETE_BATCH + 1500 }, (_, i) => ({
      ts: `${dayOf(oldDay)}T${String(Math.floor(i / 360) % 24).padStart(2, "0")}:${String(Math.floor(i / 6) % 60).padStart(2, "0")}:00.000Z`,
      type: "page.view",
      name: i % 3 ? "home" : "about",
      path: "",
      ref: "",
      src: "",
      meta: "{}",
      cid: `visitor${i % 40}x`,
    }));
    const events = [...big, ...someEvents(500, 8, 3)];

    const clean = async () => ({
      daily: await db.selectFrom("analytics_daily").selectAll().orderBy("type").orderBy("day").orderBy("name").execute(),
      reports: await Promise.all(TRACKED_TYPES.map((type) => tallyByName(db, { type, sinceDays: 0, now: NOW }))),
    });
    await writeEvents(db, events);
    await runAnalyticsRollup(db, { now: NOW, retentionDays: RETENTION });
    const want = await clean();

    db = await freshApp();
    await writeEvents(db, events);
    const peek = new Database(env().databasePath, { readonly: true });
    try {
      const stopped = () => {
        const s = peek.prepare("select rolling_day from analytics_rollup_state").get() as { rolling_day: string | null };
        if (!s.rolling_day) return false;
        const n = peek.prepare("select count(*) as n from analytics_events where ts like ?").get(`${s.rolling_day}%`) as { n: number };
        return n.n < DELETE_BATCH + 1500;
      };
      const partial = await runAnalyticsRollup(db, { now: NOW, retentionDays: RETENTION, stopped });
      expect(partial.deleted).toBe(DELETE_BATCH);
      expect((await readRollupState(db)).rollingDay).toBe(dayOf(oldDay));
      // Meanwhile the reports already treat the day as rolled up: nothing is missing.
      expect(await Promise.all(TRACKED_TYPES.map((type) => tallyByName(db, { type, sinceDays: 0, now: NOW })))).toEqual(want.reports);
    } finally {
      peek.close();
    }
    const rest = await runAnalyticsRollup(db, { now: NOW, retentionDays: RETENTION });
    expect(rest.rolledDays[0]).toBe(dayOf(oldDay));
    expect(await clean()).toEqual(want);
    expect((await readRollupState(db)).rollingDay).toBeNull();
  });

  it("rolls up history written after a run that found nothing, day by day with its uniques", async () => {
    expect(await runAnalyticsRollup(db, { now: NOW, retentionDays: RETENTION })).toEqual({ summarized: 0, rolledDays: [], deleted: 0, pruned: 0 });
    const events = someEvents(800, 31);
    await writeEvents(db, events);
    const result = await runAnalyticsRollup(db, { now: NOW, retentionDays: RETENTION });
    expect(result.rolledDays).toHaveLength(8);
    for (const type of TRACKED_TYPES) {
      expect(await tallyByName(db, { type, sinceDays: 0, now: NOW })).toEqual(expectedAfterRollup(events, type, 0));
    }
  });

  it("deletes stragglers that arrive for a day already rolled up, keeping their counts", async () => {
    await writeEvents(db, someEvents(300, 2));
    await runAnalyticsRollup(db, { now: NOW, retentionDays: RETENTION });
    const before = await tallyByName(db, { type: "event", sinceDays: 0, now: NOW });
    const late: TrackRow = { ts: iso(NOW - 8 * DAY_MS), type: "event", name: "late.event", path: "", ref: "", src: "", meta: "{}", cid: "latecomer1" };
    await writeEvents(db, [late]);
    await runAnalyticsRollup(db, { now: NOW, retentionDays: RETENTION });
    const raw = await db.selectFrom("analytics_events").select("id").where("name", "=", "late.event").execute();
    expect(raw).toHaveLength(0);
    const after = await tallyByName(db, { type: "event", sinceDays: 0, now: NOW });
    expect(after.find((t) => t.name === "late.event")).toMatchObject({ total: 1 });
    expect(after.filter((t) => t.name !== "late.event")).toEqual(before);
  });
});
