import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { flushWrongKeys, resetWrongKeysForTests } from "~/features/admin/wrong-keys.server";
import { flushAnalytics } from "~/features/analytics/analytics.server";
import { stopNotifyWorker } from "~/features/blog/blog.server";
import { resetAdminForTests } from "~/features/admin/staff-auth.server";
import { closeDb, getDb, migrateToLatest, openDatabase, type Db } from "~/lib/db/db.server";
import { drainOutbox, stopMailWorker } from "~/lib/mail/email.server";
import { resetEnvForTests } from "~/lib/server/env.server";
import { resetRateLimitsForTests } from "~/lib/server/rate-limit.server";
import { resetSecretsForTests } from "~/lib/db/secrets.server";

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

/**
 * PostgreSQL runs (TEST_DATABASE_URL set, see tests/support/postgres.mjs): each test file gets
 * its own database, migrated once; each test then starts from it emptied (TRUNCATE … RESTART
 * IDENTITY) and refilled with the rows the migrations wrote, which takes milliseconds where a
 * new database per test takes a quarter of a second.
 */
const pgServer = process.env.TEST_DATABASE_URL;
const pgName = `site_test_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
let pgAdmin: pg.Client | undefined;
let pgBaseline: { tables: string[]; rows: Map<string, Record<string, unknown>[]> } | undefined;

const databaseUrl = (name: string) => {
  const u = new URL(pgServer!);
  u.pathname = `/${name}`;
  return u.toString();
};

async function freshPostgresDatabase(): Promise<string> {
  const url = databaseUrl(pgName);
  const template = `${pgName}_template`;
  if (!pgAdmin) {
    pgAdmin = new pg.Client({ connectionString: pgServer });
    await pgAdmin.connect();
    await pgAdmin.query(`create database ${template}`);
    const db = openDatabase(databaseUrl(template), { poolSize: 1 });
    await migrateToLatest(db);
    await db.destroy();
    await pgAdmin.query(`create database ${pgName} template ${template}`);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  if (pgBaseline) {
    // A test that dropped a table (to see a failure handled) gets a new copy of the template.
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name = any($1)",
      [pgBaseline.tables],
    );
    if (rows[0]!.n !== pgBaseline.tables.length) {
      await client.end();
      await pgAdmin.query(`drop database ${pgName} with (force)`);
      await pgAdmin.query(`create database ${pgName} template ${template}`);
      return url;
    }
  }
  try {
    if (!pgBaseline) {
      const { rows } = await client.query<{ t: string }>(
        "select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%' order by 1",
      );
      const tables = rows.map((r) => r.t);
      const baseline = new Map<string, Record<string, unknown>[]>();
      for (const t of tables) baseline.set(t, (await client.query(`select * from ${t}`)).rows);
      pgBaseline = { tables, rows: baseline };
      return url;
    }
    await client.query(`truncate ${pgBaseline.tables.join(", ")} restart identity`);
    for (const [t, rows] of pgBaseline.rows) {
      for (const row of rows) {
        const cols = Object.keys(row);
        await client.query(`insert into ${t} (${cols.join(", ")}) values (${cols.map((_, i) => `$${i + 1}`).join(", ")})`, Object.values(row));
      }
    }
    return url;
  } finally {
    await client.end();
  }
}

async function dropPostgresDatabases() {
  if (!pgAdmin) return;
  await pgAdmin.query(`drop database if exists ${pgName} with (force)`);
  await pgAdmin.query(`drop database if exists ${pgName}_template with (force)`);
  await pgAdmin.end();
  pgAdmin = undefined;
  pgBaseline = undefined;
}

/** Which database the tests of this run use. */
export const testDatabaseKind: "sqlite" | "postgres" = pgServer ? "postgres" : "sqlite";

/** Drops this file's PostgreSQL databases (the vitest setup calls it once the file is done). */
export async function dropTestDatabases() {
  await dropPostgresDatabases();
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
  await stopNotifyWorker();
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
 * A clean slate for one test: a new, migrated SQLite file in this test file's DATA_DIR (or a new
 * PostgreSQL database when TEST_DATABASE_URL is set), fresh
 * limits and settings. `env` overrides process.env until the next reset (undefined deletes a
 * variable).
 */
export async function freshApp(env: Record<string, string | undefined> = {}): Promise<Db> {
  await resetApp();
  if (pgServer) {
    process.env.DATABASE_URL = await freshPostgresDatabase();
  } else {
    const file = path.join(dataDir(), `site-${++counter}.db`);
    fs.copyFileSync(await migratedTemplate(), file);
    process.env.DATABASE_PATH = file;
  }
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
