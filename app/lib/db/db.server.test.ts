import { fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrationNames, openDatabase } from "./db.server";

/**
 * Another process holding SQLite's write lock on a new database (as the first of several
 * WORKERS does while it migrates) while this one opens it: opening waits for the lock instead
 * of failing with 'database is locked' (seen in CI: the second process then never served).
 */
describe("opening a SQLite database another process is writing", () => {
  it("waits for the other process's transaction and opens in WAL mode", async () => {
    const dir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, "open-"));
    const file = path.join(dir, "site.db");
    const holder = `
      const Database = require(${JSON.stringify(require.resolve("better-sqlite3"))});
      const db = new Database(process.argv[2]);
      db.exec("begin immediate");
      db.exec("create table t (x)");
      process.send("locked");
      setTimeout(() => {
        require("node:fs").writeFileSync(process.argv[3], String(Date.now()));
        db.exec("commit"); db.close(); process.exit(0);
      }, 1500);
    `;
    const script = path.join(dir, "holder.cjs");
    fs.writeFileSync(script, holder);
    const committedAt = path.join(dir, "committed-at");
    const child = fork(script, [file, committedAt], { stdio: "ignore" });
    await new Promise((resolve) => child.once("message", resolve));
    const db = openDatabase(file);
    try {
      const mode = await db.executeQuery<{ journal_mode: string }>({ sql: "pragma journal_mode", parameters: [], query: { kind: "RawNode" } } as never);
      expect(mode.rows[0]?.journal_mode).toBe("wal");
      // It opened once the other process had let go, not before (the same clock, no timing guess).
      expect(Date.now()).toBeGreaterThanOrEqual(Number(fs.readFileSync(committedAt, "utf8")));
    } finally {
      await db.destroy();
      child.kill();
    }
  });
});

describe("the migrations", () => {
  it("are every file in db/migrations, in name order, with an up step", () => {
    const files = fs
      .readdirSync(path.join(process.cwd(), "db/migrations"))
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .map((f) => f.slice(0, -3))
      .sort();
    expect(files.length).toBeGreaterThan(20);
    expect(migrationNames()).toEqual(files);
  });
});
