import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { recordActivity } from "~/features/activity/activity.server";
import { dailyVisitorId } from "~/features/analytics/visitor.server";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { getBadgeOrder, submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { subscribe } from "~/features/newsletter/newsletter.server";
import { copySqliteToPostgres } from "~/lib/db/copy-database.server";
import { env } from "~/lib/server/env.server";
import { getBlob, putBlob } from "~/lib/db/blob-store.server";
import { onBroadcast } from "~/lib/server/cluster-bus.server";
import { migrateToLatest, openDatabase, postgresPoolOf, type Db } from "~/lib/db/db.server";
import { consume, useSharedLimits } from "~/lib/server/rate-limit.server";
import { getSessionSecret, resetSecretsForTests } from "~/lib/db/secrets.server";
import { refreshSalt, startSharedState, stopSharedState } from "~/lib/db/shared-state.server";
import { runSeeds, seeds } from "../../db/seed";
import { freshApp, testDatabaseKind } from "../support/reset";

/**
 * What several processes (or machines) on one PostgreSQL database share. Each 'process' here
 * is a second pool of connections to the test's database, as another machine would hold.
 */
const opened: Db[] = [];
afterEach(async () => {
  await stopSharedState();
  for (const db of opened.splice(0)) await db.destroy();
});

function anotherProcess(url = process.env.DATABASE_URL!) {
  const db = openDatabase(url, { poolSize: 4 });
  opened.push(db);
  return db;
}

describe.runIf(testDatabaseKind === "postgres")("PostgreSQL: what every process shares", () => {
  it("two processes migrating and seeding one new database at once: both finish, each migration and seed runs once", async () => {
    await freshApp();
    const name = `site_twins_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const [a, b] = [anotherProcess(url.toString()), anotherProcess(url.toString())];
      const [ra, rb] = await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
      // Kysely's PostgreSQL migrator holds an advisory lock: one ran them all, the other none.
      expect([ra.length, rb.length].sort()).toEqual([0, ra.length + rb.length]);
      await Promise.all([runSeeds(a), runSeeds(b)]);
      const runs = await a.selectFrom("seed_runs").selectAll().orderBy("name").execute();
      expect(runs.map((r) => r.name)).toEqual(seeds.map((s) => s.name).sort());
      const items = await a.selectFrom("merch_items").select("id").execute();
      expect(items.length).toBeGreaterThan(0);
      expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
      for (const db of opened.splice(0)) await db.destroy();
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  it("a stored image written by one process is read by another", async () => {
    const db = await freshApp();
    const other = anotherProcess();
    const bytes = crypto.randomBytes(5000);
    await putBlob(db, "badge-orders/BO-ABC123/portrait.png", bytes);
    expect((await getBlob(other, "badge-orders/BO-ABC123/portrait.png"))?.equals(bytes)).toBe(true);
    expect(await getBlob(other, "badge-orders/BO-ABC123/badge.png")).toBeNull();
    await expect(putBlob(db, "badge-orders/../secrets", bytes)).rejects.toThrow(/not a stored-file key/);
  });

  it("the session secret is the same in every process: made by the first, read by the rest", async () => {
    const db = await freshApp();
    await startSharedState(db);
    const first = getSessionSecret();
    await stopSharedState();
    resetSecretsForTests();
    await startSharedState(anotherProcess());
    expect(getSessionSecret()).toBe(first);
  });

  it("rate limits count together across processes", async () => {
    const db = await freshApp({ RATE_LIMIT: "on" });
    const rule = { points: 3, durationSeconds: 600 };
    useSharedLimits(postgresPoolOf(db)!.pool);
    for (let i = 0; i < 3; i++) expect(await consume("pgShared", rule, "203.0.113.7")).toEqual({ ok: true });
    // Another process: its own pool, the same table.
    useSharedLimits(postgresPoolOf(anotherProcess())!.pool);
    const refused = await consume("pgShared", rule, "203.0.113.7");
    expect(refused.ok).toBe(false);
    expect(await consume("pgShared", rule, "203.0.113.8")).toEqual({ ok: true });
  });

  it("the visitor salt is the same in every process on a day, and gone from the database once the day is over", async () => {
    const db = await freshApp();
    const day1 = new Date("2026-11-25T10:00:00Z");
    await refreshSalt(db, day1);
    const here = dailyVisitorId("203.0.113.9", "Phone", day1.getTime());
    await refreshSalt(anotherProcess(), day1);
    expect(dailyVisitorId("203.0.113.9", "Phone", day1.getTime())).toBe(here);
    const day2 = new Date("2026-11-26T00:00:05Z");
    await refreshSalt(db, day2);
    expect((await db.selectFrom("visitor_salts").select("day").execute()).map((r) => r.day)).toEqual(["2026-11-26"]);
    expect(dailyVisitorId("203.0.113.9", "Phone", day2.getTime())).not.toBe(here);
  });

  it("a change in one process reaches the others (LISTEN/NOTIFY): their page caches are emptied", async () => {
    const db = await freshApp();
    let heard = 0;
    onBroadcast("test:changed", () => heard++);
    await startSharedState(db);
    // Another machine announces a change, as its broadcast() does.
    await postgresPoolOf(anotherProcess())!.pool.query("select pg_notify('site_bus', $1)", [JSON.stringify({ topic: "test:changed", from: "elsewhere" })]);
    await expect.poll(() => heard, { timeout: 5000 }).toBe(1);
  });
});

describe.runIf(testDatabaseKind === "postgres")("npm run db:copy: a SQLite site onto PostgreSQL", () => {
  it("copies every table and file, counts match, numbering carries on; a second copy into it is refused", async () => {
    const target = await freshApp();
    // The SQLite site being moved: its own file in this test's data folder.
    const source = openDatabase(path.join(env().dataDir, `moving-${Date.now()}.db`));
    opened.push(source);
    await migrateToLatest(source);
    await runSeeds(source);
    const portrait = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#2e7d4f" } }).png().toBuffer();
    const order = await submitBadgeOrder(
      source,
      BadgeOrderSchema.parse({ tierKey: "t3", name: "Jane Wanjiru", email: "jane@example.org", paymentReference: "QC12345678" }),
      portrait,
    );
    await subscribe(source, { email: "reader@example.org", source: "footer" });
    const activityId = await recordActivity(source, { type: "test.moved", message: "before the move", actorIp: "10.0.0.1" });
    fs.writeFileSync(path.join(env().dataDir, "session-secret"), "moved-session-secret-0123456789\n");

    const report = await copySqliteToPostgres(source, target, env().dataDir);
    expect(report.tables.find((t) => t.name === "badge_orders")).toEqual({ name: "badge_orders", rows: 1 });
    expect(report.tables.find((t) => t.name === "subscribers")).toEqual({ name: "subscribers", rows: 1 });
    expect(report.files).toBe(1);
    expect(report.secrets).toContain("session-secret");

    expect((await getBadgeOrder(target, order.id)).name).toBe("Jane Wanjiru");
    expect((await getBlob(target, `badge-orders/${order.id}/portrait.jpg`))?.equals(portrait)).toBe(true);
    expect((await target.selectFrom("outbox").select("kind").orderBy("id").execute()).map((m) => m.kind)).toEqual(["badge.received", "newsletter.welcome"]);
    // A new row is numbered after the copied ones.
    expect(await recordActivity(target, { type: "test.moved", message: "after the move", actorIp: "10.0.0.1" })).toBeGreaterThan(activityId);
    resetSecretsForTests();
    await startSharedState(target);
    expect(getSessionSecret()).toBe("moved-session-secret-0123456789");

    await expect(copySqliteToPostgres(source, target, env().dataDir)).rejects.toThrow(/already has 1 row\(s\) in badge_orders/);
  });
});
