import http from "node:http";
import type { Kysely } from "kysely";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databaseStatus, noteDatabaseError } from "~/lib/db/database-health.server";
import type { Db } from "~/lib/db/db.server";
import { freshApp, testDatabaseKind } from "../../tests/support/reset";
import { answerHealth, forgetReadinessForTests, OUTBOX_STUCK_MS } from "./health.server";

/**
 * /healthz and /readyz as a load balancer and an operator see them, on this test's database: the
 * handler the server runs before the page cache and the router (app/server/server.ts).
 */
let server: http.Server;
let base = "";
let draining = false;
let db: Db;

beforeEach(async () => {
  db = await freshApp();
  draining = false;
  forgetReadinessForTests();
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://site.test");
    if (!answerHealth(req, res, url, { draining: () => draining, db: () => db })) {
      res.statusCode = 404;
      res.end("not a health path");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function ask(path: string, init?: RequestInit) {
  forgetReadinessForTests();
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, any>) : null };
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

async function queueMail(status: "queued" | "sent", nextAttemptAt: string, sentAt: string | null = null) {
  await db
    .insertInto("outbox")
    .values({ kind: "test", to_address: "someone@example.org", subject: "s", text_body: "t", headers: "{}", attachments: "[]", attempts: 0, status, next_attempt_at: nextAttemptAt, created_at: nextAttemptAt, sent_at: sentAt })
    .execute();
}

describe(`health and readiness on ${testDatabaseKind}`, () => {
  it("/healthz: 200 while serving, 503 while draining; never cached, nothing personal", async () => {
    const up = await ask("/healthz");
    expect([up.status, up.body]).toEqual([200, { ok: true }]);
    expect(up.headers.get("cache-control")).toBe("no-store");
    expect(up.headers.get("content-type")).toMatch(/^application\/json/);
    draining = true;
    const down = await ask("/healthz");
    expect([down.status, down.body]).toEqual([503, { ok: false, draining: true }]);
    const ready = await ask("/readyz");
    expect(ready.status).toBe(503);
    expect(ready.body!.failing).toEqual(["serving"]);
  });

  it("/readyz: 200 with each check when the database answers, its migrations are current and the outbox moves", async () => {
    const r = await ask("/readyz");
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body!.ok).toBe(true);
    expect(Object.keys(r.body!.checks)).toEqual(["serving", "database", "migrations", "outbox", "disk"]);
    for (const check of Object.values(r.body!.checks) as { ok: boolean }[]) expect(check.ok).toBe(true);
    expect(r.body!.checks.migrations.applied).toBe(r.body!.checks.migrations.expected);
    // HEAD: the same status, no body.
    const head = await fetch(`${base}/readyz`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    // Only GET and HEAD.
    expect((await ask("/readyz", { method: "POST" })).status).toBe(405);
  });

  it("/readyz names the outbox when a message has been due for over 15 minutes and nothing was sent since", async () => {
    expect(OUTBOX_STUCK_MS).toBe(15 * 60_000);
    await queueMail("queued", minutesAgo(10));
    expect((await ask("/readyz")).status, "due 10 minutes: not yet stuck").toBe(200);
    await queueMail("queued", minutesAgo(20));
    await queueMail("sent", minutesAgo(60), minutesAgo(59));
    const stuck = await ask("/readyz");
    expect(stuck.status).toBe(503);
    expect(stuck.body!.failing).toEqual(["outbox"]);
    expect(stuck.body!.checks.outbox).toEqual({ ok: false, stuck: true, oldestDueMinutes: 20 });
    // A send since it fell due: the queue is being worked (a long newsletter, say).
    await queueMail("sent", minutesAgo(60), minutesAgo(1));
    const working = await ask("/readyz");
    expect(working.status).toBe(200);
    expect(working.body!.checks.outbox).toEqual({ ok: true, oldestDueMinutes: 20 });
    // Nothing in the answer names a person.
    expect(JSON.stringify(working.body)).not.toContain("@");
  });

  it("/readyz names the migrations when one this build knows has not run", async () => {
    const name = "2026-11-26-15-callbacks-on-doubt";
    const migrations = db as unknown as Kysely<any>;
    const row = await migrations.selectFrom("kysely_migration").selectAll().where("name", "=", name).executeTakeFirstOrThrow();
    await migrations.deleteFrom("kysely_migration").where("name", "=", name).execute();
    try {
      const r = await ask("/readyz");
      expect(r.status).toBe(503);
      expect(r.body!.failing).toEqual(["migrations"]);
      expect(r.body!.checks.migrations).toMatchObject({ ok: false, applied: r.body!.checks.migrations.expected - 1 });
    } finally {
      // The test database is reused (its migrations table is not refilled between tests).
      await migrations.insertInto("kysely_migration").values(row).execute();
    }
  });

  it("/readyz names the database while it is away, and is ready again once it answers", async () => {
    const away = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    expect(noteDatabaseError(away)).toBe(true);
    expect(databaseStatus().up).toBe(false);
    const r = await ask("/readyz");
    expect(r.status).toBe(503);
    expect(r.body!.failing).toEqual(["database", "migrations", "outbox"]);
    expect(r.body!.checks.database.ok).toBe(false);
    // The probe finds it answering (it never left) within a second.
    await expect.poll(() => databaseStatus().up, { timeout: 3_000 }).toBe(true);
    expect((await ask("/readyz")).status).toBe(200);
  });
});
