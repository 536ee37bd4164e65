import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtSite, createDatabaseOn, freshCode, untilStatus } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * `npm start` on PostgreSQL with two server processes: copies of one order sent at once (a
 * phone retrying while the first is still in flight), with and without an Idempotency-Key,
 * land on both processes; one order is stored and every copy is answered with it.
 */
describe.runIf(testDatabaseKind === "postgres")("a retried order under two server processes", () => {
  let site: SiteProcess | undefined;
  let origin = "";
  let databaseUrl = "";

  beforeAll(async () => {
    builtSite();
    databaseUrl = await createDatabaseOn(process.env.TEST_DATABASE_URL!, "site_replay");
    site = await startSiteProcess("replay", { DATABASE_URL: databaseUrl, WORKERS: "2" });
    origin = `http://127.0.0.1:${site.port}`;
    await untilStatus(`${origin}/readyz`, 200, 30_000);
  }, 150_000);

  afterAll(async () => {
    await site?.stop();
  });

  async function rows(sql: string, params: unknown[]) {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      return (await db.query(sql, params)).rows;
    } finally {
      await db.end();
    }
  }

  /** One POST, sent again (as a phone would) while the site answers 503 'try again in a moment'. */
  const send = async (body: unknown, headers: Record<string, string> = {}) => {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${origin}/api/badge_orders.php`, {
        method: "POST",
        headers: { "content-type": "application/json", connection: "close", ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const answer = { status: res.status, body: (await res.json()) as { ok: boolean; id?: string; replayed?: boolean; error?: string } };
      if (res.status !== 503 || attempt === 5) return answer;
      await new Promise((r) => setTimeout(r, 300 * attempt));
    }
  };

  it.each([
    ["the same code, email and tier", (): Record<string, string> => ({})],
    ["an Idempotency-Key", () => ({ "Idempotency-Key": `key-${crypto.randomBytes(6).toString("hex")}` })],
  ])("twenty copies at once with %s: one order, twenty 200s with its reference", async (_, headersOf) => {
    const code = freshCode("RP");
    const order = { tierKey: "t2", name: "Retry Supporter", email: `${code.toLowerCase()}@example.org`, paymentReference: code };
    const headers = headersOf();
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(order, headers)));
    expect(answers.map((a) => `${a.status} ${a.body.error ?? ""}`)).toEqual(Array(20).fill("200 "));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => !a.body.replayed)).toHaveLength(1);
    const stored = await rows("select id from badge_orders where payment_reference = $1", [code]);
    expect(stored).toEqual([{ id: [...ids][0] }]);
    expect(await rows("select count(*)::int as n from outbox where to_address = $1", [order.email])).toEqual([{ n: 1 }]);
    if (headers["Idempotency-Key"]) {
      // The key is in the database: either process refuses it with another body.
      const other = await send({ ...order, paymentReference: freshCode("RQ") }, headers);
      expect(other.status).toBe(409);
      expect(other.body.error).toMatch(/^This Idempotency-Key was already used/);
    }
  }, 60_000);
});
