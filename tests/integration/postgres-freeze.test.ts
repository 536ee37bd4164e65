import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNAVAILABLE } from "~/lib/core/database-unavailable";
import { builtSite, createDatabaseOn, freshCode, untilStatus } from "../support/outage";
import { startTestPostgres } from "../support/postgres.mjs";
import { testDatabaseKind } from "../support/reset";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * PostgreSQL frozen (SIGSTOP to the postmaster and every backend for 20 s: it neither answers
 * nor refuses) under a running site taking orders. The server cannot enforce its own
 * statement_timeout while frozen, so the site's own deadline must: every order is answered
 * within 6 s (200, or 503 with Retry-After and the sentence), orders are taken again within
 * 2 s of SIGCONT, and every order answered 200 is stored.
 */

type Cluster = { url?: string; reason?: string; stop?: () => void; freeze?: () => void; thaw?: () => void };
type Answer = { code: string; status: number; sentAt: number; ms: number; error?: string; retryAfter?: string | null };

async function order(origin: string, code: string): Promise<Answer> {
  const sentAt = Date.now();
  try {
    const res = await fetch(`${origin}/api/badge_orders.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tierKey: "t1", name: `Frozen Supporter ${code}`, email: `${code.toLowerCase()}@example.org`, paymentReference: code }),
      signal: AbortSignal.timeout(60_000),
    });
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    return { code, status: res.status, sentAt, ms: Date.now() - sentAt, error: body.error, retryAfter: res.headers.get("retry-after") };
  } catch {
    return { code, status: 0, sentAt, ms: Date.now() - sentAt };
  }
}

describe.runIf(testDatabaseKind === "postgres")("PostgreSQL frozen (SIGSTOP) for 20 s under a running site", () => {
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
    databaseUrl = await createDatabaseOn(cluster.url, "site_freeze");
    site = await startSiteProcess("pg-freeze", { DATABASE_URL: databaseUrl });
    origin = `http://127.0.0.1:${site.port}`;
    await untilStatus(`${origin}/readyz`, 200, 30_000);
  }, 150_000);

  afterAll(async () => {
    cluster?.thaw?.();
    await site?.stop();
    cluster?.stop?.();
  });

  it("answers every order within 6 s while frozen and takes orders within 2 s of the thaw", async (ctx) => {
    if (!cluster.url) return ctx.skip(cluster.reason ?? "no PostgreSQL");
    // The site warmed up: an order taken first.
    let warm = await order(origin, freshCode("W"));
    for (let i = 0; i < 20 && warm.status !== 200; i++) warm = await order(origin, freshCode("W"));
    expect(warm.status, `${JSON.stringify(warm)}\n${site!.output()}`).toBe(200);
    const answers: Answer[] = [];
    let running = true;
    // Four supporters ordering one after another, all along.
    const supporters = Array.from({ length: 4 }, async () => {
      while (running) {
        answers.push(await order(origin, freshCode("Z")));
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    await new Promise((r) => setTimeout(r, 1_000));
    const frozenAt = Date.now();
    cluster.freeze!();
    await new Promise((r) => setTimeout(r, 20_000));
    const thawedAt = Date.now();
    cluster.thaw!();
    await new Promise((r) => setTimeout(r, 4_000));
    running = false;
    await Promise.all(supporters);

    // Every order waiting on the frozen server: those in flight when it froze, and those sent since.
    const during = answers.filter((a) => a.sentAt < thawedAt && a.sentAt + a.ms > frozenAt);
    expect(during.length).toBeGreaterThan(4);
    for (const a of during) {
      const waited = a.sentAt + a.ms - Math.max(a.sentAt, frozenAt);
      expect(waited, `waited ${waited} ms on the frozen server: ${JSON.stringify(a)}`).toBeLessThan(6_000);
      expect([200, 503], JSON.stringify(a)).toContain(a.status);
      if (a.status === 503) {
        expect(a.error).toBe(UNAVAILABLE.orders);
        expect(a.retryAfter).toBeTruthy();
      }
    }
    expect(during.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    // Served again within 2 s of SIGCONT.
    const firstTaken = answers.filter((a) => a.status === 200 && a.sentAt + a.ms >= thawedAt).sort((x, y) => x.sentAt + x.ms - (y.sentAt + y.ms))[0];
    expect(firstTaken, "an order taken after the thaw").toBeTruthy();
    expect(firstTaken!.sentAt + firstTaken!.ms - thawedAt).toBeLessThan(2_000);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 503), "never a 500 or no answer").toEqual([]);

    // Nothing acknowledged is lost.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const stored = new Set((await db.query<{ code: string }>("select payment_reference as code from badge_orders")).rows.map((r) => r.code));
      const taken = answers.filter((a) => a.status === 200);
      expect(taken.filter((a) => !stored.has(a.code)).map((a) => a.code)).toEqual([]);
    } finally {
      await db.end();
    }
    expect(site!.output()).not.toMatch(/uncaught exception|exited with code/);
  }, 90_000);
});
