import fs from "node:fs";
import path from "node:path";
import { expect, test } from "../support/e2e-fixtures";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

// The first `npm start` with no ADMIN_KEY: the site makes a key, keeps it in the data folder and
// prints it where the person starting it can copy it, alone on its line (the log escapes line
// breaks inside one entry, so a key sent as part of a longer entry would come out glued to it).

let site: SiteProcess | undefined;

test.describe.configure({ timeout: 90_000 });
test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "no browser: runs once");

test.afterAll(async () => {
  await site?.stop();
});

test("the first start without ADMIN_KEY prints the key it made on a line of its own, and the key opens the admin API", async () => {
  site = await startSiteProcess("first-start", {}, ["ADMIN_KEY"]);
  const file = path.join(site.dataDir, "admin-key");
  const key = fs.readFileSync(file, "utf8").trim();
  expect(key.length).toBeGreaterThanOrEqual(16);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);

  const lines = site.output().split("\n");
  // Each log line starts with its level.
  expect(lines).toContain(`INFO [admin] generated a new admin key stored in ${file} (mode 0600):`);
  expect(lines).toContain(`INFO [admin]   ${key}`);
  expect(lines).toContain("INFO [admin] To choose your own, set ADMIN_KEY (16+ characters) or replace that file and restart.");

  const api = `http://127.0.0.1:${site.port}/api/badge_orders.php?status=pending`;
  expect((await fetch(api, { headers: { "X-Admin-Key": key } })).status).toBe(200);
  expect((await fetch(api, { headers: { "X-Admin-Key": `${key}x` } })).status).toBe(401);
});
