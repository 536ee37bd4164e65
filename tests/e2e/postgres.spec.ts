import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, test } from "../support/e2e-fixtures";
import { byStatus, orderBurst, refusedAsBusy } from "../support/order-burst";
import { startTestPostgres } from "../support/postgres.mjs";
import { servingPids, startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * Two servers on one PostgreSQL database, as two machines behind a load balancer would be:
 * separate processes, separate data folders, nothing shared but the database. No browser.
 */
type TestPostgres = { url?: string; reason?: string; stop?: () => void };
let server: TestPostgres;
let databaseUrl: string | undefined;
let admin: pg.Client | undefined;

test.beforeAll(async ({}, info) => {
  if (info.project.name !== "js-on") return;
  server = (await startTestPostgres()) as TestPostgres;
  if (!server.url) {
    if (process.env.REQUIRE_POSTGRES === "1") throw new Error(server.reason);
    return;
  }
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const name = `site_e2e_${crypto.randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${name}`);
  const u = new URL(server.url);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
});

test.afterAll(async () => {
  await admin?.end();
  server?.stop?.();
});

test("two servers on one PostgreSQL database: 400 orders split across both (some sharing codes), one killed mid-burst: every acknowledged order stored once, each email sent once", async ({}, info) => {
  test.skip(info.project.name !== "js-on", "runs once; it needs no browser");
  test.skip(!databaseUrl, `PostgreSQL is not available: ${server?.reason ?? ""}`);
  test.setTimeout(180_000);
  // Both start at once on a new database: migrations and seeds run once between them.
  const sites: SiteProcess[] = await Promise.all(["pg-a", "pg-b"].map((label) => startSiteProcess(label, { DATABASE_URL: databaseUrl! })));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const [a, b] = sites as [SiteProcess, SiteProcess];
    const [victim] = servingPids(a.output());
    const answers = await orderBurst([`http://127.0.0.1:${a.port}`, `http://127.0.0.1:${b.port}`], "PG", (answered) => {
      if (answered === 100) process.kill(victim!, "SIGKILL");
    });
    const statuses = byStatus(answers);
    console.log(`[postgres] answers by status: ${JSON.stringify(statuses)}`);
    info.annotations.push({ type: "burst", description: JSON.stringify(statuses) });
    // The other server kept serving; the killed one's supervisor started a new process.
    expect((await fetch(`http://127.0.0.1:${b.port}/merchandise`)).status).toBe(200);
    await expect.poll(() => servingPids(a.output()).length, { timeout: 30_000 }).toBe(2);

    const seedRuns = (await db.query<{ name: string }>("select name from seed_runs order by name")).rows.map((r) => r.name);
    expect(seedRuns).toEqual(["blog-posts", "merch-catalogue", "team-badges"]);
    const rows = (await db.query<{ id: string; code: string }>("select id, payment_reference as code from badge_orders")).rows;
    const stored = new Map(rows.map((r) => [r.id, r.code]));
    const acknowledged = answers.filter((x) => x.status === 200 && x.id);
    // Every request sent to the server that was not killed (every second one) was answered.
    const toSurvivor = answers.filter((_, i) => i % 2 === 1);
    expect(toSurvivor.filter((x) => x.status === 0), "no request to the other server went unanswered").toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(toSurvivor.filter((x) => x.status === 200).length);
    for (const x of acknowledged) expect(stored.get(x.id!), x.id).toBe(x.code);
    // One order per code, whichever server took it; the second use of a code was refused.
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
    // Told 503 'busy, try again': not stored behind that answer (a retry would find its code used).
    for (const code of refusedAsBusy(answers)) expect(rows.some((r) => r.code === code), code).toBe(false);
    for (const x of answers.filter((y) => y.status === 409)) expect(rows.filter((r) => r.code === x.code)).toHaveLength(1);
    expect(Object.keys(statuses).filter((s) => !["0", "200", "409", "503"].includes(s))).toEqual([]);

    // Each order's 'we received your order' email: queued once with it, sent by exactly one
    // server (each keeps its .eml files in its own data folder), never twice. One the killed
    // process had claimed stays claimed until its lease ends.
    const mails = (await db.query<{ n: number; d: number }>("select count(*)::int as n, count(distinct to_address)::int as d from outbox where kind = 'badge.received'")).rows[0];
    expect(mails).toEqual({ n: rows.length, d: rows.length });
    const unsent = async () =>
      (await db.query<{ status: string; n: number }>("select status, count(*)::int as n from outbox where kind = 'badge.received' and status not in ('sent', 'written') group by status")).rows;
    await expect.poll(async () => (await unsent()).filter((u) => u.status !== "sending"), { timeout: 60_000 }).toEqual([]);
    const claimedByTheDead = (await unsent()).reduce((sum, u) => sum + u.n, 0);
    expect(claimedByTheDead, "at most what one process was sending when it died").toBeLessThanOrEqual(2);
    const files = sites.flatMap((s) => {
      const dir = path.join(s.dataDir, "outbox");
      return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith("badgereceived.eml")).map((f) => path.join(dir, f)) : [];
    });
    // A message the killed process had claimed may have been written just before it died (it is
    // marked sent after writing): every other message was sent exactly once, those at most once.
    expect(files.length).toBeGreaterThanOrEqual(rows.length - claimedByTheDead);
    expect(files.length).toBeLessThanOrEqual(rows.length);
    const sentTo = files.map((f) => /^To: (.+)$/m.exec(fs.readFileSync(f, "utf8"))?.[1]);
    expect(new Set(sentTo).size, "no one mailed twice").toBe(files.length);
    // Both servers sent some: the outbox is shared, not one server's.
    for (const s of sites) expect(fs.readdirSync(path.join(s.dataDir, "outbox")).length).toBeGreaterThan(0);
  } finally {
    await db.end();
    for (const s of sites) await s.stop();
  }
});
