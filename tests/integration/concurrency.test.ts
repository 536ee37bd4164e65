import { afterEach, describe, expect, it } from "vitest";
import { writeEvents, type TrackRow } from "~/features/analytics/analytics.server";
import { runAnalyticsRollup, summarizeBatch } from "~/features/analytics/rollup.server";
import { addToBag, getBag } from "~/features/merch/merch.server";
import { subscribe } from "~/features/newsletter/newsletter.server";
import { openDatabase, type Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { runSeeds } from "../../db/seed";
import { freshApp, testDatabaseKind } from "../support/reset";

/**
 * Read-modify-write under transactions that run side by side: on PostgreSQL (read committed)
 * two processes' transactions interleave unless the data layer locks. Each test works through
 * two pools of connections ('two processes'). On SQLite a second connection in this same thread
 * would wait synchronously for a lock the first cannot release, so both sides share the test's
 * connection there (requests in one process do); separate SQLite processes are the WORKERS
 * browser test's part.
 */
const opened: Db[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy();
});

function anotherProcess(db: Db): Db {
  const url = env().databaseUrl;
  if (!url) return db;
  const other = openDatabase(url, { poolSize: 4 });
  opened.push(other);
  return other;
}

describe(`side-by-side changes on ${testDatabaseKind}`, () => {
  it("twelve adds to one bag from two processes at once: every one counts", async () => {
    const db = await freshApp();
    await runSeeds(db);
    const other = anotherProcess(db);
    const { bagId } = await addToBag(db, null, { itemId: "SL-CAP", quantity: 1 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => addToBag(i % 2 ? db : other, bagId, { itemId: "SL-CAP", quantity: 1 })));
    const bag = await getBag(db, bagId);
    expect(bag.lines.map((l) => [l.itemId, l.quantity])).toEqual([["SL-CAP", 13]]);
  });

  it("two processes summarising analytics at once count every event once", async () => {
    const db = await freshApp();
    const other = anotherProcess(db);
    const events: TrackRow[] = Array.from({ length: 3000 }, (_, i) => ({
      ts: `2026-11-2${i % 3}T10:00:00.000Z`,
      type: "page.view",
      name: ["home", "about", "event"][i % 3]!,
      path: "",
      ref: i % 4 ? "" : "https://www.google.com/search",
      src: "",
      meta: "{}",
      cid: `c${i % 50}`,
    }));
    await writeEvents(db, events);
    const drain = async (d: Db) => {
      while ((await summarizeBatch(d, 250)) > 0);
    };
    await Promise.all([drain(db), drain(other), drain(db), drain(other)]);
    const daily = await db.selectFrom("analytics_daily").select(["total"]).execute();
    expect(daily.reduce((n, r) => n + r.total, 0)).toBe(3000);
    const refs = await db.selectFrom("analytics_daily_refs").select(["host", "total"]).execute();
    expect(refs.reduce((n, r) => n + r.total, 0)).toBe(750);
    expect(new Set(refs.map((r) => r.host))).toEqual(new Set(["www.google.com"]));
  });

  it("two processes rolling up old days at once: each day's distinct clients counted once, before its events go", async () => {
    const db = await freshApp();
    const other = anotherProcess(db);
    const now = Date.parse("2026-11-25T12:00:00.000Z");
    const events: TrackRow[] = Array.from({ length: 4000 }, (_, i) => ({
      ts: new Date(now - (1 + (i % 10)) * 86_400_000).toISOString(),
      type: "page.view",
      name: "home",
      path: "",
      ref: "",
      src: "",
      meta: "{}",
      cid: `c${(i * 7) % 37}`,
    }));
    await writeEvents(db, events);
    const want = new Map<string, Set<string>>();
    for (const e of events) want.set(e.ts.slice(0, 10), (want.get(e.ts.slice(0, 10)) ?? new Set()).add(e.cid));
    await Promise.all([runAnalyticsRollup(db, { now, retentionDays: 3 }), runAnalyticsRollup(other, { now, retentionDays: 3 })]);
    // A run that found the other at work stopped; one more finishes whatever is left.
    await runAnalyticsRollup(db, { now, retentionDays: 3 });
    const rows = await db.selectFrom("analytics_daily").select(["day", "total", "uniques"]).where("day", "<", "2026-11-22").orderBy("day").execute();
    expect(rows.length).toBe(7);
    for (const r of rows) expect([r.day, r.total, r.uniques]).toEqual([r.day, 400, want.get(r.day)!.size]);
    const left = await db.selectFrom("analytics_events").select("ts").where("ts", "<", "2026-11-22").execute();
    expect(left).toEqual([]);
  });

  it("one address signed up from two processes at once: one subscriber, one welcome, both answered", async () => {
    const db = await freshApp();
    const other = anotherProcess(db);
    const outcomes = await Promise.all([subscribe(db, { email: "twice@example.org", source: "footer" }), subscribe(other, { email: "twice@example.org", source: "footer" })]);
    expect(outcomes.sort()).toEqual(["already", "created"]);
    expect(await db.selectFrom("subscribers").select("email").execute()).toEqual([{ email: "twice@example.org" }]);
    expect((await db.selectFrom("outbox").select("kind").execute()).map((m) => m.kind)).toEqual(["newsletter.welcome"]);
  });
});
