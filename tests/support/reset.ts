import fs from "node:fs";
import path from "node:path";
import { flushWrongKeys, resetWrongKeysForTests } from "~/features/admin/wrong-keys.server";
import { flushAnalytics } from "~/features/analytics/analytics.server";
import { resetAdminForTests } from "~/lib/admin.server";
import { closeDb, getDb, migrateToLatest, openDatabase, type Db } from "~/lib/db.server";
import { drainOutbox, stopMailWorker } from "~/lib/email.server";
import { resetEnvForTests } from "~/lib/env.server";
import { resetRateLimitsForTests } from "~/lib/rate-limit.server";
import { resetSecretsForTests } from "~/lib/secrets.server";

let counter = 0;
let template: string | undefined;
/** True while a database opened by freshApp may have background work (mail, analytics). */
let active = false;
/** process.env values to put back when the test that overrode them is over. */
const saved = new Map<string, string | undefined>();

function dataDir() {
  const dir = process.env.DATA_DIR;
  if (!dir) throw new Error("DATA_DIR is not set: is tests/support/vitest-setup.ts loaded?");
  return dir;
}

/** Migrates once per test file; each test then starts from a copy of that file. */
async function migratedTemplate() {
  if (template && fs.existsSync(template)) return template;
  const file = path.join(dataDir(), "template.db");
  fs.rmSync(file, { force: true });
  const db = openDatabase(file);
  await migrateToLatest(db);
  await db.destroy();
  template = file;
  return file;
}

/**
 * Waits for background work, then forgets every module singleton. Mail a test left queued
 * without waiting for it is not sent: its database is thrown away with it.
 */
export async function resetApp() {
  if (active) {
    const db = await getDb();
    await db
      .updateTable("outbox")
      .set({ next_attempt_at: "9999-12-31T00:00:00.000Z" })
      .where("status", "=", "queued")
      .execute();
    await drainOutbox(); // finishes a pass already under way; nothing else is due
  }
  await flushAnalytics();
  if (active) await flushWrongKeys();
  resetWrongKeysForTests();
  stopMailWorker();
  await closeDb();
  current = undefined;
  for (const [k, v] of saved) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  saved.clear();
  resetRateLimitsForTests();
  resetSecretsForTests();
  resetAdminForTests();
  resetEnvForTests();
  active = false;
}

/**
 * A clean slate for one test: a new, migrated SQLite file in this test file's DATA_DIR, fresh
 * limits and settings. `env` overrides process.env until the next reset (undefined deletes a
 * variable).
 */
export async function freshApp(env: Record<string, string | undefined> = {}): Promise<Db> {
  await resetApp();
  const file = path.join(dataDir(), `site-${++counter}.db`);
  fs.copyFileSync(await migratedTemplate(), file);
  process.env.DATABASE_PATH = file;
  for (const [k, v] of Object.entries(env)) {
    if (!saved.has(k)) saved.set(k, process.env[k]);
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTests();
  active = true;
  current = await getDb();
  return current;
}

let current: Db | undefined;

/** The database of the running test's freshApp() (what the server puts in a route's context). */
export function currentTestDb(): Db {
  if (!current) throw new Error("no database: call freshApp() in a beforeEach first");
  return current;
}
