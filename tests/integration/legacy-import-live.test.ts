import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, TMP_DIR } from "../support/e2e-env";
import { buildLegacySite } from "../support/legacy-site";
import { builtSite } from "../support/outage";
import { testDatabaseKind } from "../support/reset";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

/**
 * `npm run import:legacy` beside a running SQLite site (`npm start`, same DATA_DIR): the site's
 * cached pages must not outlive the import. The old posts are on /blogs within 2 s of the
 * command's end.
 */
describe.runIf(testDatabaseKind === "sqlite")("the old site imported while the site runs", () => {
  let site: SiteProcess | undefined;
  let old = "";

  beforeAll(async () => {
    builtSite();
    site = await startSiteProcess("import-live");
    fs.mkdirSync(TMP_DIR, { recursive: true });
    old = fs.mkdtempSync(path.join(TMP_DIR, "import-live-old-"));
  }, 150_000);

  afterAll(async () => {
    await site?.stop();
    if (old) fs.rmSync(old, { recursive: true, force: true });
  });

  const blogs = async () => (await fetch(`http://127.0.0.1:${site!.port}/blogs`)).text();

  it("the imported posts are on /blogs within 2 s of the command's end", async () => {
    // The list is served from the page cache before the import (a first visit, no cookie).
    const before = await blogs();
    expect(await blogs()).toBe(before);
    expect(before).not.toContain("Being Salt and Light in Secular Places");

    const legacy = await buildLegacySite(path.join(old, "public"));
    const r = spawnSync(process.execPath, ["app/server/import-legacy.mjs", legacy.dir], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", DATA_DIR: site!.dataDir, DATABASE_URL: "", DATABASE_PATH: "" },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    const ended = Date.now();

    let page = before;
    while (!page.includes("Being Salt and Light in Secular Places") && Date.now() - ended < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      page = await blogs();
    }
    const took = Date.now() - ended;
    expect(page).toContain("Being Salt and Light in Secular Places");
    expect(took, `the imported posts showed after ${took} ms`).toBeLessThan(2_000);
  }, 150_000);
});
