import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, TMP_DIR } from "../support/e2e-env";
import { builtSite } from "../support/outage";
import { testDatabaseKind } from "../support/reset";

/**
 * The command-line tools print what old files and arguments hold: a terminal must get escapes,
 * never the control characters themselves (a window-title change, colours, a line break that
 * forges an `[import] …` line), exactly as the server's log writes them.
 */

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let dir = "";

function run(script: string, args: string[]) {
  const r = spawnSync(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", DATA_DIR: path.join(dir, "data"), DATABASE_URL: "", DATABASE_PATH: "" },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe.runIf(testDatabaseKind === "sqlite")("the command-line tools print control characters escaped", () => {
  beforeAll(() => {
    builtSite();
    fs.mkdirSync(TMP_DIR, { recursive: true });
    dir = fs.mkdtempSync(path.join(TMP_DIR, "cli-terminal-"));
    const data = path.join(dir, "old", "data");
    fs.mkdirSync(data, { recursive: true });
    fs.writeFileSync(
      path.join(data, "badge_orders.json"),
      JSON.stringify([
        {
          id: "order_1",
          createdAt: "2025-11-01T09:00:00+00:00",
          status: "pending",
          name: "Esc \u001b]0;pwned\u0007 Name",
          email: "bad\u001b[31m\n[import] data/forged.json: 99 added",
          tierKey: "t1",
          amount: 1300,
          paymentReference: "QAB1C2D3E4",
        },
      ]),
    );
    // The team badges file, named relative to the folder being imported.
    fs.writeFileSync(path.join(dir, "old", "team.json"), "[]");
  }, 150_000);

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("import: a file holding escape codes and a line break is reported on whole, escaped lines", () => {
    const { status, out } = run("app/server/import-legacy.mjs", [path.join(dir, "old"), "--dry-run", "--badges", "team.json"]);
    expect(status, out).toBe(0);
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).toContain("\\u001b[31m\\n[import] data/forged.json");
    expect(out.split("\n").filter((l) => l.startsWith("[import] data/forged.json"))).toEqual([]);
    // --badges FILE is looked for in the import folder.
    const badges = out.split("\n").find((l) => l.startsWith("[import] data/team_badges.json") || l.includes("team.json"));
    expect(badges, out).toBeTruthy();
    expect(badges).not.toMatch(/not in the folder/);
  });

  it("backup and restore: an argument holding escape codes is printed escaped", () => {
    const backup = run("app/server/backup.mjs", ["restore", path.join(dir, "no\u001b]0;such\u0007-backup.tar.gz")]);
    expect(backup.status).toBe(1);
    expect(backup.out).not.toMatch(RAW_CONTROL);
    expect(backup.out).toContain("\\u001b]0;such\\u0007");
  });
});
