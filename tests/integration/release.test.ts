import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, TMP_DIR } from "../support/e2e-env";
import { builtSite } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { freePort } from "../support/site-process";

/**
 * `npm run release` (here with the build the tests just made: --no-build) unpacked in an empty
 * folder outside this checkout, so no node_modules above it can lend a dev dependency, and
 * started with `node app/server/start.mjs` as the systemd unit does: it serves, and never builds.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), "site-release-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe.runIf(testDatabaseKind === "sqlite")("npm run release", () => {
  it("makes a tarball that starts with node alone, with production dependencies only, and never builds", async () => {
    builtSite();
    fs.mkdirSync(TMP_DIR, { recursive: true });
    const out = fs.mkdtempSync(path.join(TMP_DIR, "release-"));
    try {
      const made = spawnSync(process.execPath, ["app/server/release.mjs", "--no-build", out], { cwd: ROOT, encoding: "utf8" });
      expect(made.status, made.stderr).toBe(0);
      const tarball = fs.readdirSync(out).find((f) => f.endsWith(".tar.gz"));
      expect(tarball).toMatch(/^outreach-site-\d{8}T\d{6}-[0-9a-f]+(-modified)?\.tar\.gz$/);
      expect(spawnSync("tar", ["-xzf", path.join(out, tarball!), "-C", work]).status).toBe(0);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
    const [name] = fs.readdirSync(work);
    const dir = path.join(work, name!);
    expect(fs.readFileSync(path.join(dir, "RELEASE"), "utf8")).toContain(name);
    for (const f of ["app/server/start.mjs", "build/server/index.js", "deploy/install.sh", "deploy/outreach-site.service", "node_modules/better-sqlite3", "node_modules/sharp"]) {
      expect(fs.existsSync(path.join(dir, f)), f).toBe(true);
    }
    for (const dev of ["vite", "vitest", "typescript", "@react-router/dev", "@playwright/test"]) expect(fs.existsSync(path.join(dir, "node_modules", dev)), dev).toBe(false);
    expect(fs.existsSync(path.join(dir, "app/routes"))).toBe(false);
    // A start script newer than the build: a checkout would build; a release does not.
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(dir, "app/server/start.mjs"), later, later);

    const port = await freePort();
    const env: NodeJS.ProcessEnv = { PATH: "/usr/bin:/bin", HOME: work, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: path.join(work, "data"), RATE_LIMIT: "off" };
    const child = spawn(process.execPath, ["app/server/start.mjs"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const exited = new Promise((r) => child.once("exit", r));
    try {
      const started = Date.now();
      while (!output.includes("[http] serving")) {
        if (child.exitCode !== null || Date.now() - started > 45_000) throw new Error(`the release did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<html");
      const ready = (await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as { ok: boolean };
      expect(ready.ok).toBe(true);
      expect(output).not.toMatch(/building|envFile|Future Flag|warning/i);
      // The admin key it made is printed once, with where it is kept.
      expect(output).toContain(`[admin] generated a new admin key stored in ${path.join(work, "data", "admin-key")} (mode 0600):`);
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  }, 120_000);
});
