import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNAVAILABLE } from "~/lib/core/database-unavailable";
import { migrateToLatest, openDatabase } from "~/lib/db/db.server";
import { ROOT, TMP_DIR } from "../support/e2e-env";
import { builtSite, freshCode, placeOrder } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { freePort, siteEnv } from "../support/site-process";

/**
 * The SQLite file is not writable when the site starts (an operator's chmod, a restore by
 * another user): SQLite opens it read-only without a word, and orders get the 503 sentence.
 * Made writable again, the site must open the file again by itself: orders are taken within
 * 5 s, with no restart. The site runs as `nobody` (root writes any file), so the test needs
 * root and a checkout `nobody` can enter; without them the test says so and is skipped.
 */

const NOBODY = 65534;
const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
/** Whether `nobody` can reach the checkout's code: not when it sits in a private folder (`mktemp -d` makes them 0700). */
const nobodyReachesCode = () =>
  spawnSync(process.execPath, ["-e", `require("fs").accessSync(${JSON.stringify(path.join(ROOT, "app/server/start.mjs"))})`], {
    uid: NOBODY,
    gid: NOBODY,
    stdio: "ignore",
  }).status === 0;

describe.runIf(testDatabaseKind === "sqlite")("a SQLite file that was read-only, made writable again", () => {
  let dataDir = "";
  let child: ChildProcess | undefined;
  let output = "";
  let origin = "";
  // Asked once the suite runs (SQLite only), not when the file is loaded.
  let canRun = false;

  beforeAll(async () => {
    canRun = asRoot && nobodyReachesCode();
    if (!canRun) {
      console.warn(
        asRoot
          ? `[database-reopen] skipped: the user nobody cannot reach ${ROOT} (a folder only its owner may enter), so the site cannot run as another user`
          : "[database-reopen] skipped: needs root to run the site as another user",
      );
      return;
    }
    builtSite();
    fs.mkdirSync(TMP_DIR, { recursive: true });
    dataDir = fs.mkdtempSync(path.join(TMP_DIR, "reopen-"));
    const file = path.join(dataDir, "site.db");
    const db = openDatabase(file);
    await migrateToLatest(db);
    await db.destroy();
    // The folder is the site's; the file is another user's, which the site may read, not write
    // (and cannot chmod).
    fs.chownSync(dataDir, NOBODY, NOBODY);
    fs.chmodSync(dataDir, 0o700);
    fs.chmodSync(file, 0o644);

    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ["app/server/start.mjs"], {
      cwd: ROOT,
      env: { ...siteEnv(port, dataDir), HOME: dataDir },
      uid: NOBODY,
      gid: NOBODY,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const started = Date.now();
    while (!output.includes("[http] serving")) {
      if (child.exitCode !== null) throw new Error(`the site did not start:\n${output}`);
      if (Date.now() - started > 45_000) throw new Error(`the site did not start in 45 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 150_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses orders with the sentence while read-only, then takes them within 5 s of the file becoming writable", async (ctx) => {
    if (!canRun) return ctx.skip(asRoot ? "the user nobody cannot reach the checkout" : "needs root to run the site as another user");
    const refused = await placeOrder(origin, freshCode("R"));
    expect(refused.status, JSON.stringify(refused)).toBe(503);
    expect(refused.error).toBe(UNAVAILABLE.orders);

    fs.chownSync(path.join(dataDir, "site.db"), NOBODY, NOBODY);
    const writable = Date.now();
    let answer = await placeOrder(origin, freshCode("W"));
    while (answer.status !== 200 && Date.now() - writable < 8_000) {
      await new Promise((r) => setTimeout(r, 200));
      answer = await placeOrder(origin, freshCode("W"));
    }
    expect(answer.status, `${JSON.stringify(answer)}\n${output}`).toBe(200);
    expect(Date.now() - writable).toBeLessThan(5_000);
    // And it stays up: ten more orders, all taken.
    const more = await Promise.all(Array.from({ length: 10 }, () => placeOrder(origin, freshCode("M"))));
    expect(more.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(output).not.toMatch(/uncaught exception|exited with code/);
  }, 60_000);
});
