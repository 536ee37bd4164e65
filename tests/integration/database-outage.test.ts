import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNAVAILABLE } from "~/lib/core/database-unavailable";
import { builtSite, createDatabaseOn, freshCode, getOnNewConnection, holdSqliteLock, placeOrder, postOrderForm, processEnds, untilStatus, type OrderAnswer } from "../support/outage";
import { startTestPostgres } from "../support/postgres.mjs";
import { testDatabaseKind } from "../support/reset";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * The database goes away under a running site (`npm start`, the real build) and comes back:
 * no server process ends, every order answered 200 is stored once, every other answer is a 503
 * with a sentence (no 500, no reset), cached pages keep coming, and the site takes orders again
 * within seconds without a restart. On PostgreSQL: a cluster of this file's own (it is stopped
 * and started under the site), WORKERS=2, `pg_ctl stop -m fast`. On SQLite: another program
 * holding the write lock past busy_timeout (SQLITE_BUSY).
 */

type Cluster = { url?: string; reason?: string; stop?: () => void; halt?: () => void; resume?: () => void };

const sentences = (answers: OrderAnswer[]) => [...new Set(answers.filter((a) => a.status !== 200).map((a) => a.error ?? ""))];

function expectOnlyAnswers(answers: OrderAnswer[]) {
  const statuses: Record<number, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  // 200 or 503; never a 500, never a reset or a timeout (0).
  expect(Object.keys(statuses).map(Number).filter((s) => s !== 200 && s !== 503), JSON.stringify(statuses)).toEqual([]);
  for (const s of sentences(answers)) expect(s, "a 503 says what to do, in a sentence").toMatch(/^[A-Z].{20,}[.!?]$/);
  return statuses;
}

describe.runIf(testDatabaseKind === "postgres")("PostgreSQL stopped and started under two server processes", () => {
  let cluster: Cluster;
  let site: SiteProcess | undefined;
  let origin = "";
  let databaseUrl = "";

  beforeAll(async () => {
    builtSite();
    cluster = (await startTestPostgres({ own: true })) as Cluster;
    if (!cluster.url) {
      if (process.env.REQUIRE_POSTGRES === "1") throw new Error(`no PostgreSQL cluster of its own: ${cluster.reason}`);
      return;
    }
    databaseUrl = await createDatabaseOn(cluster.url, "site_outage");
    site = await startSiteProcess("pg-outage", { DATABASE_URL: databaseUrl, WORKERS: "2" });
    origin = `http://127.0.0.1:${site.port}`;
    await untilStatus(`${origin}/readyz`, 200, 30_000);
  }, 150_000);

  afterAll(async () => {
    await site?.stop();
    cluster?.stop?.();
  });

  async function storedOrders() {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      return (await db.query<{ id: string; code: string }>("select id, payment_reference as code from badge_orders")).rows;
    } finally {
      await db.end();
    }
  }

  /** 200 orders at once; PostgreSQL stopped (fast) once 30 are answered, for `seconds`, then started. */
  async function outage(seconds: number, prefix: string) {
    // Pages in the page cache of both processes before the outage: one that needs the database
    // to render (the event page), one that does not. After an earlier outage, first let the
    // change bus (LISTEN/NOTIFY) reconnect: it empties the caches when it does, as a change may
    // have been missed while it was away.
    await untilStatus(`${origin}/readyz`, 200, 10_000);
    await new Promise((r) => setTimeout(r, 2_500));
    for (const page of ["/event", "/about"]) for (let i = 0; i < 6; i++) expect((await getOnNewConnection(`${origin}${page}`)).status).toBe(200);
    let answered = 0;
    let haltedAt = 0;
    let stopped: () => void = () => {};
    const halted = new Promise<void>((resolve) => (stopped = resolve));
    const haltNow = () => {
      if (haltedAt) return;
      haltedAt = Date.now();
      setImmediate(() => {
        cluster.halt!();
        stopped();
      });
    };
    const burst = Promise.all(
      Array.from({ length: 200 }, () =>
        placeOrder(origin, freshCode(prefix)).then((a) => {
          if (++answered === 30) haltNow();
          return a;
        }),
      ),
    );
    void burst.then(haltNow);
    await halted;
    try {
      return await whileAway(seconds, prefix, haltedAt, burst);
    } finally {
      if (!backAt) cluster.resume!();
    }
  }

  let backAt = 0;
  async function whileAway(seconds: number, prefix: string, haltedAt: number, burst: Promise<OrderAnswer[]>) {
    backAt = 0;
    // While it is away: orders are refused at once, cached pages keep coming.
    const during: OrderAnswer[] = [];
    const cachedTimes: number[] = [];
    while (Date.now() - haltedAt < seconds * 1000) {
      during.push(await placeOrder(origin, freshCode(prefix)));
      for (const page of ["/event", "/about"]) {
        const res = await getOnNewConnection(`${origin}${page}`);
        expect(res.status, `${page} while the database is away`).toBe(200);
        cachedTimes.push(res.ms);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    cluster.resume!();
    backAt = Date.now();
    // Back: the next order is taken within 5 s, without a restart.
    let firstTaken: OrderAnswer | undefined;
    const after: OrderAnswer[] = [];
    while (!firstTaken) {
      const a = await placeOrder(origin, freshCode(prefix));
      after.push(a);
      if (a.status === 200) firstTaken = a;
      else if (Date.now() - backAt > 15_000) break;
      else await new Promise((r) => setTimeout(r, 100));
    }
    const answers = [...(await burst), ...during, ...after];
    return { answers, during, backInMs: firstTaken ? Date.now() - backAt : Infinity, cachedTimes };
  }

  async function expectStoredOnce(answers: OrderAnswer[]) {
    const rows = await storedOrders();
    const byId = new Map(rows.map((r) => [r.id, r.code]));
    for (const a of answers.filter((x) => x.status === 200)) expect(byId.get(a.id!), `order ${a.id} (${a.code})`).toBe(a.code);
    expect(new Set(rows.map((r) => r.code)).size, "no code stored twice").toBe(rows.length);
  }

  for (const [seconds, prefix] of [[3, "PA"], [20, "PB"]] as const) {
    it(`for ${seconds} s during 200 orders: no process ends, 200s stored once, the rest 503 with a sentence, back within 5 s`, async (ctx) => {
      if (!site) return ctx.skip();
      const before = site.output().length;
      const { answers, during, backInMs, cachedTimes } = await outage(seconds, prefix);
      const statuses = expectOnlyAnswers(answers);
      console.log(`[outage ${seconds} s] answers ${JSON.stringify(statuses)}, back in ${backInMs} ms, cached pages max ${Math.max(...cachedTimes)} ms`);
      expect(backInMs, "orders taken again within 5 s of PostgreSQL being back").toBeLessThan(5_000);
      // While it was away: refused quickly, in the order form's words.
      expect(during.length).toBeGreaterThan(0);
      for (const a of during.filter((x) => x.status !== 200)) {
        expect(a.error).toBe(UNAVAILABLE.orders);
        expect(a.ms, "no request waits long for a database that is not there").toBeLessThan(6_000);
      }
      expect(during.filter((a) => a.status === 503).length).toBeGreaterThan(0);
      await expectStoredOnce(answers);
      const log = site.output().slice(before);
      expect(processEnds(log), "no server process ended or was replaced").toEqual([]);
      // Said once per process, not once per request.
      expect(log.match(/database unavailable/g)?.length ?? 0).toBeLessThanOrEqual(2);
    }, 90_000);
  }

  it("a process started while PostgreSQL is down serves pages and 503s, then everything once it is back", async (ctx) => {
    if (!site) return ctx.skip();
    cluster.halt!();
    let late: SiteProcess | undefined;
    let resumed = false;
    try {
      late = await startSiteProcess("pg-late", { DATABASE_URL: databaseUrl });
      const at = `http://127.0.0.1:${late.port}`;
      expect((await fetch(`${at}/about`)).status).toBe(200);
      expect((await fetch(`${at}/healthz`)).status).toBe(200);
      const ready = await fetch(`${at}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { failing: string[] }).failing).toContain("database");
      const page = await fetch(`${at}/event`);
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await page.text()).toContain(UNAVAILABLE.page);
      const orders = await Promise.all(Array.from({ length: 10 }, () => placeOrder(at, freshCode("PC"))));
      expect(orders.map((o) => [o.status, o.error])).toEqual(orders.map(() => [503, UNAVAILABLE.orders]));
      // The order form without JavaScript: the page says the same.
      const form = await postOrderForm(at, freshCode("PC"));
      expect([form.status, form.retryAfter]).toEqual([503, expect.stringMatching(/^\d+$/)]);
      expect(form.html).toContain(UNAVAILABLE.orders);
      expect(late.output().match(/database unavailable/g)?.length, late.output()).toBe(1);

      cluster.resume!();
      resumed = true;
      await untilStatus(`${at}/readyz`, 200, 10_000);
      const taken = await placeOrder(at, freshCode("PC"));
      expect(taken.status).toBe(200);
      expect(late.output()).toContain("database ready");
      expect(processEnds(late.output())).toEqual([]);
    } finally {
      if (!resumed) cluster.resume!();
      await late?.stop();
    }
  }, 90_000);
});

describe.runIf(testDatabaseKind === "sqlite")("SQLite locked by another program past busy_timeout", () => {
  let site: SiteProcess | undefined;
  let origin = "";

  beforeAll(async () => {
    builtSite();
    site = await startSiteProcess("sqlite-outage");
    origin = `http://127.0.0.1:${site.port}`;
    await untilStatus(`${origin}/readyz`, 200, 30_000);
  }, 150_000);

  afterAll(async () => {
    await site?.stop();
  });

  it("orders are answered 503 with the order sentence (not 500), cached pages keep coming, and it recovers by itself", async () => {
    for (const page of ["/event", "/about"]) expect((await fetch(`${origin}${page}`)).status).toBe(200);
    const before = site!.output().length;
    const lock = await holdSqliteLock(path.join(site!.dataDir, "site.db"));
    const answers: OrderAnswer[] = [];
    const cachedTimes: number[] = [];
    let released = false;
    try {
      const first = Promise.all(Array.from({ length: 10 }, () => placeOrder(origin, freshCode("SA"))));
      // The process keeps serving while the first order waits for the lock (asynchronously): a
      // cached page asked for every 100 ms for 8 s, each on its own.
      const pages: Promise<void>[] = [];
      for (let i = 0; i < 80; i++) {
        const page = i % 2 ? "/about" : "/event";
        pages.push(
          getOnNewConnection(`${origin}${page}`).then((res) => {
            expect(res.status, page).toBe(200);
            cachedTimes.push(res.ms);
          }),
        );
        await new Promise((r) => setTimeout(r, 100));
      }
      await Promise.all(pages);
      answers.push(...(await first));
      const form = await postOrderForm(origin, freshCode("SA"));
      expect(form.status).toBe(503);
      expect(form.html).toContain(UNAVAILABLE.orders);
      const during = await placeOrder(origin, freshCode("SA"));
      answers.push(during);
      expect(during.ms, "once the lock is known, refused without waiting").toBeLessThan(1_000);
      await lock.release();
      released = true;
      const backIn = await untilStatus(`${origin}/readyz`, 200, 5_000);
      const taken = await placeOrder(origin, freshCode("SA"));
      answers.push(taken);
      expect(taken.status).toBe(200);
      console.log(`[sqlite lock] cached pages max ${Math.max(...cachedTimes)} ms, ready again in ${backIn} ms`);
    } finally {
      if (!released) await lock.release();
    }
    expectOnlyAnswers(answers);
    expect(answers.filter((a) => a.status === 503).map((a) => a.error)).toEqual(answers.filter((a) => a.status === 503).map(() => UNAVAILABLE.orders));
    expect(answers.filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(10);
    // A wait for the lock inside SQLite's busy handler would hold up every request that came in
    // meanwhile, for the whole busy_timeout (5 s): dozens of these. A loaded machine may slow one.
    const sorted = [...cachedTimes].sort((a, b) => a - b);
    expect(cachedTimes.filter((ms) => ms > 2_000).length, `cached pages are not held up by the lock (${cachedTimes.join(" ")} ms)`).toBeLessThanOrEqual(3);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(300);
    const db = new Database(path.join(site!.dataDir, "site.db"), { readonly: true });
    try {
      for (const a of answers.filter((x) => x.status === 200)) {
        expect(db.prepare("select payment_reference as code from badge_orders where id = ?").get(a.id)).toEqual({ code: a.code });
      }
      for (const a of answers.filter((x) => x.status === 503)) {
        expect(db.prepare("select count(*) as n from badge_orders where payment_reference = ?").get(a.code), "told 503: not stored").toEqual({ n: 0 });
      }
    } finally {
      db.close();
    }
    const log = site!.output().slice(before);
    expect(processEnds(log)).toEqual([]);
    expect(log.match(/database unavailable/g)?.length).toBe(1);
  }, 90_000);

  it("a process started on a locked database serves, answers 503 for orders, and becomes ready once the lock is gone", async () => {
    const file = path.join(site!.dataDir, "site.db");
    const lock = await holdSqliteLock(file);
    let late: SiteProcess | undefined;
    try {
      late = await startSiteProcess("sqlite-late", { DATABASE_PATH: file });
      const at = `http://127.0.0.1:${late.port}`;
      expect((await fetch(`${at}/about`)).status).toBe(200);
      expect((await fetch(`${at}/readyz`)).status).toBe(503);
      const order = await placeOrder(at, freshCode("SB"));
      expect([order.status, order.error]).toEqual([503, UNAVAILABLE.orders]);
      await lock.release();
      await untilStatus(`${at}/readyz`, 200, 10_000);
      expect((await placeOrder(at, freshCode("SB"))).status).toBe(200);
      expect(processEnds(late.output())).toEqual([]);
      expect(late.output().match(/database unavailable/g)?.length).toBe(1);
    } finally {
      await lock.release();
      await late?.stop();
    }
  }, 90_000);
});
