import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { builtSite, freshCode, getOnNewConnection } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * `npm start` (the real build) as a load balancer sees it: /healthz and /readyz ahead of the
 * page cache and the router, never cached or limited; and SIGTERM: no new connections, what is
 * under way finished (up to a bound), then the process exits. The database does not matter
 * here: these run on SQLite only.
 */
let site: SiteProcess | undefined;
afterEach(async () => {
  await site?.stop();
  site = undefined;
});

const exited = (s: SiteProcess) =>
  new Promise<number | null>((resolve) => (s.child.exitCode !== null ? resolve(s.child.exitCode) : s.child.once("exit", (code) => resolve(code))));

/** An order posted by hand on a socket of its own: the headers and half the body now, the rest on `finish()`. */
function slowOrder(port: number) {
  const body = JSON.stringify({ tierKey: "t1", name: "Slow Supporter", email: "slow@example.org", paymentReference: freshCode("HS") });
  const socket = net.connect(port, "127.0.0.1");
  let answer = "";
  socket.setEncoding("utf8");
  socket.on("data", (d: string) => (answer += d));
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(answer)));
  socket.on("error", () => {});
  socket.write(
    `POST /api/badge_orders.php HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
      body.slice(0, 20),
  );
  return { code: JSON.parse(body).paymentReference as string, finish: () => socket.write(body.slice(20)), closed };
}

/** /healthz on a new connection: its status, or "refused" (refused, reset or never answered). */
async function newConnection(port: number): Promise<number | "refused"> {
  const r = await getOnNewConnection(`http://127.0.0.1:${port}/healthz`, 3_000);
  return r.status === 0 ? "refused" : r.status;
}

describe.runIf(testDatabaseKind === "sqlite")("health endpoints and shutdown of `npm start`", () => {
  it("/healthz and /readyz answer ahead of everything: JSON, no-store, no ETag, never rate-limited", async () => {
    builtSite();
    site = await startSiteProcess("health", { RATE_LIMIT: "on" });
    const base = `http://127.0.0.1:${site.port}`;
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(ready.headers.get("etag")).toBeNull();
    const body = (await ready.json()) as { ok: boolean; checks: Record<string, { ok: boolean }> };
    expect(body.ok).toBe(true);
    expect(Object.keys(body.checks)).toEqual(["serving", "database", "migrations", "outbox", "disk"]);
    // Load balancers asking many times a second, with the limits on: every answer 200 (ten at a
    // time: 256 connections at once from one address is the connection cap's business).
    const statuses: number[] = [];
    for (let round = 0; round < 30; round++) {
      statuses.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => fetch(`${base}/${i % 2 ? "healthz" : "readyz"}`).then((r) => r.status)))));
    }
    expect(statuses.length).toBe(300);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // Never a page-cache answer: no validator, so no 304 either.
    const again = await fetch(`${base}/healthz`, { headers: { "if-none-match": "*" } });
    expect([again.status, again.headers.get("etag")]).toEqual([200, null]);
  }, 90_000);

  it("SIGTERM: no new connections, the order under way is finished and stored, then the process exits", async () => {
    builtSite();
    site = await startSiteProcess("drain");
    const s = site;
    const order = slowOrder(s.port);
    await new Promise((r) => setTimeout(r, 300));
    const sentAt = Date.now();
    s.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 700));
    // Not served as before: refused once the process stops listening, or, a connection the
    // supervisor handed over as it stopped, told 503 (draining) by /healthz.
    expect(["refused", 503], "a new connection after SIGTERM").toContain(await newConnection(s.port));
    order.finish();
    const answer = await order.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    const id = /"id":"(BO-[A-Z0-9]+)"/.exec(answer)?.[1];
    expect(id).toBeTruthy();
    expect(await exited(s)).toBe(0);
    expect(Date.now() - sentAt).toBeLessThan(15_000);
    expect(s.output()).toContain("[http] SIGTERM: closing");
    const db = new Database(path.join(s.dataDir, "site.db"), { readonly: true });
    try {
      expect(db.prepare("select payment_reference as code from badge_orders where id = ?").get(id)).toEqual({ code: order.code });
    } finally {
      db.close();
    }
  }, 90_000);

  it("SIGTERM with a request that never finishes: the process still exits after the drain bound", async () => {
    builtSite();
    site = await startSiteProcess("drain-bound");
    const s = site;
    const stalled = slowOrder(s.port);
    await new Promise((r) => setTimeout(r, 300));
    const sentAt = Date.now();
    s.child.kill("SIGTERM");
    expect(await exited(s)).toBe(0);
    const took = Date.now() - sentAt;
    // DRAIN_MS (10 s) for the requests under way, then the rest of the shutdown.
    expect(took).toBeGreaterThanOrEqual(9_000);
    expect(took).toBeLessThan(20_000);
    // Closed unanswered by the drain, or cut first as a body that stopped arriving (408).
    expect(await stalled.closed, "the stalled request's connection was closed, unanswered or 408").toMatch(/^(|HTTP\/1\.1 408 [^]*)$/);
  }, 90_000);
});
