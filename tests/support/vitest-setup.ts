import { afterAll } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Each test file gets its own data folder (database, secrets, outbox), so files never share
// state. Tests that need other settings change process.env and call resetEnvForTests().
// On Linux the folder is in /dev/shm: a real SQLite file whose disk syncs cost nothing.
const base = process.env.TEST_TMPDIR ?? (fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir());
const dir = fs.mkdtempSync(path.join(base, "site-test-"));
process.env.DATA_DIR = dir;
process.env.DATABASE_PATH = path.join(dir, "site.db");
process.env.PUBLIC_URL = "http://site.test";
process.env.ADMIN_KEY = "test-admin-key-0123456789";
process.env.RATE_LIMIT = "on";
delete process.env.SMTP_URL;
// The database under test is chosen by TEST_DATABASE_URL (tests/support/reset.ts), never by
// a DATABASE_URL left in the shell.
delete process.env.DATABASE_URL;

// After the file's own hooks: stop background work, close the database, remove the folder.
afterAll(async () => {
  const { resetApp, dropTestDatabases } = await import("./reset");
  await resetApp();
  await dropTestDatabases();
  fs.rmSync(dir, { recursive: true, force: true });
});
