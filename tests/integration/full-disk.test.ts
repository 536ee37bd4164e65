import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNAVAILABLE } from "~/lib/core/database-unavailable";
import { TMP_DIR } from "../support/e2e-env";
import { builtSite, freshCode, placeOrder, type OrderAnswer } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * The disk under DATA_DIR fills up under a running site (`npm start`, the real build): a 20 MB
 * tmpfs mounted as DATA_DIR, filled by another file. Every refused write is a 503 with the
 * sentence (never a 500: SQLite ends the transaction itself on SQLITE_FULL, and the ROLLBACK
 * after it must not hide that), /readyz says the disk is the trouble, the outbox leaves no
 * empty .eml, and the site takes orders again as soon as the space is back. Needs root (mount);
 * where mounting is refused the test says why and is skipped.
 */

const mountPoint = path.join(TMP_DIR, `full-disk-${process.pid}`);
let mounted = false;
let reason = "";

function mountTmpfs() {
  fs.mkdirSync(mountPoint, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=20m,mode=0700", "tmpfs", mountPoint], { stdio: "pipe" });
    mounted = true;
  } catch (e) {
    reason = `cannot mount a tmpfs as DATA_DIR (${String((e as { stderr?: Buffer }).stderr ?? e).trim().split("\n")[0]})`;
    console.warn(`[full-disk] skipped: ${reason}`);
  }
}

/** Fills the disk: one file as large as the free space allows (ENOSPC ends it). */
function fill(file: string) {
  const fd = fs.openSync(file, "w");
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (e) {
    if ((e as { code?: string }).code !== "ENOSPC") throw e;
  }
  // The last bytes too, so nothing is left.
  const small = Buffer.alloc(512, 1);
  try {
    for (;;) fs.writeSync(fd, small);
  } catch {}
  fs.closeSync(fd);
}

async function subscribe(origin: string, email: string) {
  const form = new URLSearchParams({ email, source: "footer:/about", variant: "footer", website: "" });
  const res = await fetch(`${origin}/newsletter`, { method: "POST", body: form, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, html: await res.text(), retryAfter: res.headers.get("retry-after") };
}

async function readyz(origin: string) {
  const res = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: (await res.json()) as { ok: boolean; failing?: string[]; checks: Record<string, Record<string, unknown>> } };
}

const emptyOrTemporaryEml = (dir: string) =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".tmp") || (f.endsWith(".eml") && fs.statSync(path.join(dir, f)).size === 0)) : [];

describe.runIf(testDatabaseKind === "sqlite")("a full disk under DATA_DIR", () => {
  let site: SiteProcess | undefined;
  let origin = "";

  beforeAll(async () => {
    mountTmpfs();
    if (!mounted) return;
    builtSite();
    // The threshold: /readyz turns not-ready once less than 2 MB is free.
    site = await startSiteProcess("full-disk", { DATA_DIR: mountPoint, DISK_MIN_FREE_MB: "2" });
    origin = `http://127.0.0.1:${site.port}`;
    for (let i = 0; i < 100 && (await readyz(origin).catch(() => ({ status: 0 }))).status !== 200; i++) await new Promise((r) => setTimeout(r, 200));
  }, 150_000);

  afterAll(async () => {
    await site?.stop();
    if (mounted) execFileSync("umount", ["-l", mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  it("refuses every write with a 503 and its sentence, says so on /readyz, and takes orders again once space is back", async (ctx) => {
    if (!mounted) return ctx.skip(reason);
    const filler = path.join(mountPoint, "filler.bin");
    const ready = await readyz(origin);
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    expect(ready.body.checks.disk).toMatchObject({ ok: true });

    // Some orders stored while there is room, so that the outbox has messages to write.
    const before = await Promise.all(Array.from({ length: 5 }, () => placeOrder(origin, freshCode("D"))));
    expect(before.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);

    fill(filler);
    // Answers given within a second share one look (health.server.ts): the next look sees the disk.
    let low = await readyz(origin);
    for (let i = 0; i < 30 && low.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      low = await readyz(origin);
    }
    expect(low.status).toBe(503);
    expect(low.body.failing).toContain("disk");
    expect(low.body.checks.disk).toMatchObject({ ok: false, low: true });

    // Orders at once (the group commit's batch path), one alone (its plain transaction), and
    // newsletter sign-ups (a form).
    const answers: OrderAnswer[] = [];
    for (let round = 0; round < 3; round++) {
      answers.push(...(await Promise.all(Array.from({ length: 48 }, () => placeOrder(origin, freshCode("F"))))));
      answers.push(await placeOrder(origin, freshCode("L")));
    }
    const forms = await Promise.all(Array.from({ length: 6 }, (_, i) => subscribe(origin, `full${i}@example.org`)));
    const statuses = [...answers.map((a) => a.status), ...forms.map((f) => f.status)];
    expect(statuses.filter((s) => s !== 200 && s !== 503), JSON.stringify(statuses)).toEqual([]);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length, "the full disk refused orders").toBeGreaterThan(0);
    for (const a of refused) expect(a.error).toBe(UNAVAILABLE.orders);
    for (const f of forms.filter((f) => f.status === 503)) {
      expect(f.html).toContain(UNAVAILABLE.save);
      expect(f.retryAfter).toBeTruthy();
    }
    const full = await readyz(origin);
    expect(full.status).toBe(503);
    expect(full.body.failing).toContain("disk");

    // Every order answered 200 is stored.
    const db = new Database(path.join(mountPoint, "site.db"), { readonly: true });
    try {
      const stored = new Set(db.prepare("select payment_reference as code from badge_orders").all().map((r) => (r as { code: string }).code));
      for (const a of [...before, ...answers].filter((a) => a.status === 200)) expect(stored.has(a.code), a.code).toBe(true);
    } finally {
      db.close();
    }
    expect(emptyOrTemporaryEml(path.join(mountPoint, "outbox"))).toEqual([]);

    // Space back: orders are taken again within the outage probe's half second, and /readyz is ready again.
    fs.rmSync(filler);
    const spaceBack = Date.now();
    let again = await placeOrder(origin, freshCode("B"));
    while (again.status !== 200 && Date.now() - spaceBack < 3_000) {
      await new Promise((r) => setTimeout(r, 100));
      again = await placeOrder(origin, freshCode("B"));
    }
    expect(again.status, JSON.stringify(again)).toBe(200);
    expect(Date.now() - spaceBack).toBeLessThan(2_000);
    await new Promise((r) => setTimeout(r, 1_100)); // past /readyz's one-second reuse
    const fresh = await readyz(origin);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(site!.output()).not.toMatch(/uncaught exception|exited with code/);
    expect(emptyOrTemporaryEml(path.join(mountPoint, "outbox"))).toEqual([]);
  }, 120_000);
});
