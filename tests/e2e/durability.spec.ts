import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { expect, test } from "../support/e2e-fixtures";
import { ROOT, TMP_DIR } from "../support/e2e-env";
import { freePort, siteEnv } from "../support/site-process";

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
      body: new URLSearchParams({ name: "Durable Applicant", email, role: "DevOps", message: "Still here?" }),
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
