import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { expect, test } from "../support/e2e-fixtures";
import { ADMIN_KEY, ROOT, TMP_DIR } from "../support/e2e-env";
import { byStatus, orderBurst, refusedAsBusy } from "../support/order-burst";
import { freePort, servingPids, siteEnv, startSiteProcess } from "../support/site-process";

// No browser: a second site process of our own, killed the instant it answers.
test("an application the visitor was told is saved survives kill -9", async ({}, info) => {
  test.skip(info.project.name !== "js-on", "runs once; it needs no browser");
  test.setTimeout(60_000);
  const dataDir = fs.mkdtempSync(path.join(TMP_DIR, "durability-"));
  const port = await freePort();
  const env = siteEnv(port, dataDir);
  // The built server, started as app/server/start.mjs does once the build is fresh (the
  // site under test was started from the same build): no second build can race the first.
  const entry = pathToFileURL(path.join(ROOT, "build/server/index.js")).href;
  const boot = `const { startServer } = await import(${JSON.stringify(entry)}); await startServer();`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", boot], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  try {
    // Polling the output itself, so a failed start shows what the process printed.
    await expect.poll(() => output, { timeout: 45_000 }).toContain("[http] serving");

    const email = `durable-${Date.now().toString(36)}@example.com`;
    const res = await fetch(`http://127.0.0.1:${port}/join`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ name: "Durable Applicant", email, role: "DevOps", message: "Still here?", consent: "yes" }),
      redirect: "manual",
    });
    child.kill("SIGKILL");
    expect(res.status, "the visitor is told it went through").toBe(302);
    expect(res.headers.get("location")).toBe("/join/thanks");
    expect(await exited).toBe("SIGKILL");

    // Opened as the restarted server would open it (recovering the write-ahead log).
    const db = new Database(path.join(dataDir, "site.db"), { fileMustExist: true });
    try {
      const app = db.prepare("select * from applications where email = ?").get(email) as
        | { id: number; name: string; role: string }
        | undefined;
      expect(app).toMatchObject({ name: "Durable Applicant", role: "DevOps" });
      const outbox = db.prepare("select * from outbox where reply_to = ?").all(email) as { kind: string; subject: string }[];
      expect(outbox).toHaveLength(1);
      expect(outbox[0]).toMatchObject({ kind: "application.notice" });
      expect(outbox[0]!.subject).toContain(`#${app!.id}`);
    } finally {
      db.close();
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** The built server on `port` over `dataDir`, as worker.mjs starts it; resolves once it serves. */
async function serve(port: number, dataDir: string, extra: Record<string, string> = {}) {
  const entry = pathToFileURL(path.join(ROOT, "build/server/index.js")).href;
  const boot = `const { startServer } = await import(${JSON.stringify(entry)}); await startServer();`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", boot], { cwd: ROOT, env: siteEnv(port, dataDir, extra), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await expect.poll(() => output, { timeout: 45_000 }).toContain("[http] serving");
  return {
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** `npm run backup` / `npm run restore` as an operator runs them: node app/server/backup.mjs. */
function command(args: string[], dataDir: string, port: number) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["app/server/backup.mjs", ...args], { cwd: ROOT, env: siteEnv(port, dataDir), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

test("npm run backup during a burst of orders, npm run restore into an empty folder: the restored site has every acknowledged order", async ({}, info) => {
  test.skip(info.project.name !== "js-on", "runs once; it needs no browser");
  test.setTimeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(TMP_DIR, "backup-site-"));
  const backups = fs.mkdtempSync(path.join(TMP_DIR, "backups-"));
  const restoredDir = path.join(fs.mkdtempSync(path.join(TMP_DIR, "restored-")), "data");
  const port = await freePort();
  const site = await serve(port, dataDir);
  const origin = `http://127.0.0.1:${port}`;
  let n = 0;
  const place = async () => {
    const i = ++n;
    const res = await fetch(`${origin}/api/badge_orders.php`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tierKey: "t2", name: `Backup Supporter ${i}`, email: `backup-${i}@example.org`, paymentReference: `BU${String(i).padStart(8, "0")}` }),
    });
    const body = (await res.json()) as { ok: boolean; id?: string };
    return res.status === 200 && body.ok ? body.id! : null;
  };
  let file = "";
  try {
    const acknowledged = (await Promise.all(Array.from({ length: 40 }, place))).filter((id): id is string => !!id);
    expect(acknowledged).toHaveLength(40);
    // More orders keep arriving while the backup runs.
    const more = Promise.all(Array.from({ length: 40 }, place));
    const taken = await command(["backup", backups], dataDir, port);
    await more;
    expect(taken.code, taken.output).toBe(0);
    file = /wrote (\S+\.tar\.gz)/.exec(taken.output)![1]!;
    expect(fs.existsSync(file)).toBe(true);

    // A folder that holds anything is refused, and left as it was.
    const refused = await command(["restore", file], dataDir, port);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("is not empty: restore into an empty data folder.");

    const restored = await command(["restore", file], restoredDir, port);
    expect(restored.code, restored.output).toBe(0);
    const port2 = await freePort();
    const copy = await serve(port2, restoredDir);
    try {
      const res = await fetch(`http://127.0.0.1:${port2}/api/badge_orders.php?status=pending`, { headers: { "X-Admin-Key": ADMIN_KEY } });
      const items = ((await res.json()) as { items: { id: string }[] }).items.map((o) => o.id);
      for (const id of acknowledged) expect(items, id).toContain(id);
    } finally {
      await copy.stop();
    }
  } finally {
    await site.stop();
    for (const dir of [dataDir, backups, path.dirname(restoredDir)]) fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("two server processes started together on one new data folder both serve; migrations and seeds run once", async ({}, info) => {
  test.skip(info.project.name !== "js-on", "runs once; it needs no browser");
  test.setTimeout(90_000);
  const dataDir = fs.mkdtempSync(path.join(TMP_DIR, "twins-"));
  const [portA, portB] = [await freePort(), await freePort()];
  const started = await Promise.allSettled([serve(portA, dataDir), serve(portB, dataDir)]);
  try {
    for (const s of started) expect(s.status, s.status === "rejected" ? String(s.reason) : "").toBe("fulfilled");
    for (const port of [portA, portB]) expect((await fetch(`http://127.0.0.1:${port}/merchandise`)).status).toBe(200);
    const db = new Database(path.join(dataDir, "site.db"), { readonly: true });
    try {
      const runs = db.prepare("select name, ran_at from seed_runs order by name").all() as { name: string; ran_at: string }[];
      expect(runs.map((r) => r.name)).toEqual(["blog-posts", "merch-catalogue", "team-badges"]);
      const items = db.prepare("select count(*) as n, count(distinct id) as d from merch_items").get() as { n: number; d: number };
      expect(items.n).toBe(items.d);
    } finally {
      db.close();
    }
  } finally {
    for (const s of started) if (s.status === "fulfilled") await s.value.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("WORKERS=2: 400 orders at once across both processes (some sharing codes), one killed mid-burst: every acknowledged order stored once, each email once", async ({}, info) => {
  test.skip(info.project.name !== "js-on", "runs once; it needs no browser");
  test.setTimeout(180_000);
  const site = await startSiteProcess("workers", { WORKERS: "2" });
  const origin = `http://127.0.0.1:${site.port}`;
  try {
    await expect.poll(() => servingPids(site.output()).length, { timeout: 45_000 }).toBe(2);
    const [victim] = servingPids(site.output());
    // 360 codes, 40 of them sent twice: one of each pair is accepted, the other refused (409).
    // One process is killed once 100 answers are back: mid-burst, with requests in flight on it.
    const answers = await orderBurst([origin], "WK", (answered) => {
      if (answered === 100) process.kill(victim!, "SIGKILL");
    });
    const acknowledged = answers.filter((a) => a.status === 200 && a.id);
    const statuses = byStatus(answers);
    console.log(`[workers] answers by status: ${JSON.stringify(statuses)}`);
    // The other process kept serving, and the supervisor replaced the killed one.
    expect((await fetch(`${origin}/`)).status).toBe(200);
    await expect.poll(() => servingPids(site.output()).length, { timeout: 30_000 }).toBe(3);

    const db = new Database(path.join(site.dataDir, "site.db"), { readonly: true });
    try {
      const rows = db.prepare("select id, payment_reference as code from badge_orders").all() as { id: string; code: string }[];
      const stored = new Map(rows.map((r) => [r.id, r.code]));
      for (const a of acknowledged) expect(stored.get(a.id!), a.id).toBe(a.code);
      // One order per code, whichever process took it; a second use of a code was refused.
      expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
      // Told 503 'busy, try again': not stored behind that answer (a retry would find its code used).
      for (const code of refusedAsBusy(answers)) expect(rows.some((r) => r.code === code), code).toBe(false);
      const refusedTwice = answers.filter((a) => a.status === 409).map((a) => a.code);
      for (const code of refusedTwice) expect(rows.filter((r) => r.code === code)).toHaveLength(1);
      // Nothing else: an answer is an order, a refused second use, 'busy, retry' (503 with
      // Retry-After, once one process holds every connection), or no answer (cut by the kill).
      expect(Object.keys(statuses).filter((s) => !["0", "200", "409", "503"].includes(s))).toEqual([]);

      // Each stored order has its 'we received your order' email, queued once with it. Every one
      // is sent by exactly one process; one the killed process had claimed stays claimed until
      // its lease ends (then another sends it: tested in email.server.test.ts), never twice.
      const mails = db.prepare("select count(*) as n, count(distinct to_address) as d from outbox where kind = 'badge.received'").get() as { n: number; d: number };
      expect(mails).toEqual({ n: rows.length, d: rows.length });
      const unsent = () => db.prepare("select status, count(*) as n from outbox where kind = 'badge.received' and status not in ('sent', 'written') group by status").all() as { status: string; n: number }[];
      await expect.poll(() => unsent().filter((u) => u.status !== "sending"), { timeout: 60_000 }).toEqual([]);
      const claimedByTheDead = unsent().reduce((sum, u) => sum + u.n, 0);
      expect(claimedByTheDead, "at most what one process was sending when it died").toBeLessThanOrEqual(2);
      const files = fs.readdirSync(path.join(site.dataDir, "outbox")).filter((f) => f.endsWith("badgereceived.eml"));
      // A file is named after its outbox row. One the killed process had claimed may have been
      // written just before it died (its row still says 'sending'): at most one file for it;
      // every other message exactly one.
      const claimedIds = new Set(
        (db.prepare("select id from outbox where kind = 'badge.received' and status = 'sending'").all() as { id: number }[]).map((r) => r.id),
      );
      const fileIds = files.map((f) => Number(/-(\d+)-badgereceived\.eml$/.exec(f)?.[1]));
      expect(new Set(fileIds).size, "one file per message").toBe(fileIds.length);
      expect(fileIds.filter((id) => !claimedIds.has(id))).toHaveLength(rows.length - claimedByTheDead);
      const sentTo = files.map((f) => /^To: (.+)$/m.exec(fs.readFileSync(path.join(site.dataDir, "outbox", f), "utf8"))?.[1]);
      expect(new Set(sentTo).size, "no one mailed twice").toBe(files.length);
    } finally {
      db.close();
    }
    info.annotations.push({ type: "burst", description: JSON.stringify(statuses) });
  } finally {
    await site.stop();
  }
});
