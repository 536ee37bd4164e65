import { fork, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import pg from "pg";
import { TMP_DIR } from "./e2e-env";
import { ensureBuild } from "../../app/server/ensure-build.mjs";

/**
 * Helpers of the tests that take the database away from a running site
 * (tests/integration/database-outage.test.ts, tests/integration/health.test.ts).
 */

/**
 * Those tests run `npm start`'s build, made here when missing or stale (`npm test` builds before
 * the Vitest suite, so in CI it is there). Built as `npm run build` would: without Vitest's
 * environment, which leaves React Router's plugin out of vite.config.ts.
 */
export function builtSite() {
  // Test files run side by side: one builds, the others wait for it (a lock folder; one left by
  // a run that died is taken over after ten minutes).
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const lock = path.join(TMP_DIR, "build.lock");
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 500);
    }
  }
  const saved = { VITEST: process.env.VITEST, NODE_ENV: process.env.NODE_ENV };
  delete process.env.VITEST;
  delete process.env.NODE_ENV;
  try {
    ensureBuild("test");
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export type OrderAnswer = { code: string; status: number; ms: number; id?: string; error?: string; sentAt: number };

/** One public badge order (JSON API) with `code`; status 0 when no answer came (a reset, a timeout). */
export async function placeOrder(origin: string, code: string, timeoutMs = 30_000): Promise<OrderAnswer> {
  const sentAt = Date.now();
  try {
    const res = await fetch(`${origin}/api/badge_orders.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tierKey: "t1", name: `Outage Supporter ${code}`, email: `${code.toLowerCase()}@example.org`, paymentReference: code }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json().catch(() => ({}))) as { ok?: boolean; id?: string; error?: string };
    return { code, status: res.status, ms: Date.now() - sentAt, id: body.ok ? (body.id ?? undefined) : undefined, error: body.error, sentAt };
  } catch {
    return { code, status: 0, ms: Date.now() - sentAt, sentAt };
  }
}

/** The event page's order form, posted as a browser without JavaScript does (multipart). */
export async function postOrderForm(origin: string, code: string): Promise<{ status: number; html: string; retryAfter: string | null }> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ intent: "order", tierKey: "t1", name: "Form Supporter", email: `${code.toLowerCase()}@example.org`, paymentReference: code })) form.set(k, v);
  const res = await fetch(`${origin}/event`, { method: "POST", body: form, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, html: await res.text(), retryAfter: res.headers.get("retry-after") };
}

/** A payment code no other test run uses: a letter, then nine letters and digits. */
let serial = 0;
const runTag = Date.now().toString(36).toUpperCase().slice(-3);
export const freshCode = (prefix: string) => `${prefix}${runTag}${String(++serial).padStart(10 - prefix.length - runTag.length, "0")}`;

/**
 * GET on a connection of its own (no keep-alive), so that with WORKERS=2 requests reach both
 * server processes, each with its own page cache: status, body and milliseconds.
 */
export function getOnNewConnection(url: string, timeoutMs = 10_000): Promise<{ status: number; body: string; ms: number; headers: http.IncomingHttpHeaders }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, ms: Date.now() - started, headers: res.headers }));
      res.on("error", () => resolve({ status: 0, body, ms: Date.now() - started, headers: res.headers }));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve({ status: 0, body: "", ms: Date.now() - started, headers: {} }));
  });
}

/** Asks `url` until it answers `status`, for up to `timeoutMs`; the milliseconds it took. */
export async function untilStatus(url: string, status: number, timeoutMs: number, init?: RequestInit): Promise<number> {
  const started = Date.now();
  for (;;) {
    const got = await fetch(url, { ...init, signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.arrayBuffer().then(() => r.status),
      () => 0,
    );
    if (got === status) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${url} still answered ${got} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Lines of the site's output that say a server process ended or was replaced. */
export const processEnds = (output: string) =>
  output.split("\n").filter((l) => /\[start\] the server process|uncaught exception|exited with code|before it could serve/.test(l));

/**
 * Another program holding SQLite's write lock on `file` (BEGIN EXCLUSIVE; readers still read,
 * as in WAL mode) until `release()`: what a long write by another tool looks like to the site.
 */
export async function holdSqliteLock(file: string): Promise<{ release: () => Promise<void> }> {
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const script = path.join(TMP_DIR, "hold-sqlite-lock.cjs");
  const betterSqlite = createRequire(import.meta.url).resolve("better-sqlite3");
  fs.writeFileSync(
    script,
    `const Database = require(${JSON.stringify(betterSqlite)});
     const db = new Database(process.argv[2]);
     db.exec("begin exclusive");
     process.send("locked");
     process.on("message", () => { db.exec("rollback"); db.close(); process.send("released"); setTimeout(() => process.exit(0), 50); });`,
  );
  const child: ChildProcess = fork(script, [file], { stdio: "ignore" });
  await new Promise((resolve) => child.once("message", resolve));
  return {
    release: async () => {
      if (child.exitCode !== null) return;
      const done = new Promise((resolve) => child.once("message", resolve));
      child.send("release");
      await done;
    },
  };
}

/** A new, empty database `<prefix>_<random>` on the PostgreSQL server at `serverUrl`: its URL. */
export async function createDatabaseOn(serverUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}_${crypto.randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
