import Database from "better-sqlite3";
import path from "node:path";
import pg from "pg";
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  sql,
  type DialectAdapter,
  type Driver,
  type Migration,
  type MigrationProvider,
} from "kysely";
import * as analyticsRollup from "../../db/migrations/2026-11-21-05-analytics-rollup";
import * as badges from "../../db/migrations/2026-11-21-02-badges";
import * as blog from "../../db/migrations/2026-11-21-04-blog";
import * as foundation from "../../db/migrations/2026-11-21-01-foundation";
import * as staffSessions from "../../db/migrations/2026-11-21-06-staff-sessions";
import * as orderNotes from "../../db/migrations/2026-11-25-07-order-notes";
import * as receivedPayments from "../../db/migrations/2026-11-25-08-received-payments";
import * as sharedState from "../../db/migrations/2026-11-25-09-shared-state";
import * as notifyJobs from "../../db/migrations/2026-11-25-10-notify-jobs";
import * as supporterWall from "../../db/migrations/2026-11-25-11-supporter-wall";
import * as doorCheckIn from "../../db/migrations/2026-11-26-12-door-check-in";
import * as eventRecord from "../../db/migrations/2026-11-26-13-event-record";
import * as openBadges from "../../db/migrations/2026-11-26-14-open-badges";
import * as callbacksOnDoubt from "../../db/migrations/2026-11-26-15-callbacks-on-doubt";
import * as merchConfirmationOnce from "../../db/migrations/2026-11-26-16-merch-confirmation-once";
import * as legacyImport from "../../db/migrations/2026-11-26-17-legacy-import";
import * as statementCoverage from "../../db/migrations/2026-11-27-20-statement-coverage";
import * as orderReceipts from "../../db/migrations/2026-11-27-21-order-receipts";
import * as store from "../../db/migrations/2026-11-21-03-store";
import type { DB } from "../database";
import { ensurePrivateDir } from "./files.server";
export { isPostgres } from "./dialect.server";
import { env } from "./env.server";

// The server build bundles app code, so migrations are listed here, in order, rather than
// found by scanning a folder at run time.
const migrations: Record<string, Migration> = {
  "2026-11-21-01-foundation": foundation,
  "2026-11-21-02-badges": badges,
  "2026-11-21-03-store": store,
  "2026-11-21-04-blog": blog,
  "2026-11-21-05-analytics-rollup": analyticsRollup,
  "2026-11-21-06-staff-sessions": staffSessions,
  "2026-11-25-07-order-notes": orderNotes,
  "2026-11-25-08-received-payments": receivedPayments,
  "2026-11-25-09-shared-state": sharedState,
  "2026-11-25-10-notify-jobs": notifyJobs,
  "2026-11-25-11-supporter-wall": supporterWall,
  "2026-11-26-12-door-check-in": doorCheckIn,
  "2026-11-26-13-event-record": eventRecord,
  "2026-11-26-14-open-badges": openBadges,
  "2026-11-26-15-callbacks-on-doubt": callbacksOnDoubt,
  "2026-11-26-16-merch-confirmation-once": merchConfirmationOnce,
  "2026-11-26-17-legacy-import": legacyImport,
  "2026-11-27-20-statement-coverage": statementCoverage,
  "2026-11-27-21-order-receipts": orderReceipts,
};

export type { DB };
export type Db = Kysely<DB>;

/** Opens the site's database: PostgreSQL for a postgres:// URL, else the SQLite file at `target`. */
export function openDatabase(target: string, opts: { poolSize?: number } = {}): Db {
  return isPostgresUrl(target) ? openPostgres(target, opts.poolSize ?? 10) : openSqlite(target);
}

export const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/**
 * PostgreSQL through a pool of `pg` connections. Counts and sums come back as numbers, as they
 * do from SQLite (pg's default for bigint and numeric is a string); the site's counts are far
 * below 2^53.
 */
function openPostgres(url: string, poolSize: number): Db {
  const types = {
    getTypeParser(oid: number, format?: "text" | "binary") {
      if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (v: string) => Number(v);
      return pg.types.getTypeParser(oid, format as "text");
    },
  };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: types as pg.CustomTypesConfig });
  // A connection the server drops (restart, idle timeout) is replaced; it must not end the process.
  pool.on("error", (e) => console.error("[db] idle PostgreSQL connection failed:", e.message));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, { pool, url });
  return db;
}

/** Opens a SQLite database file with the settings every connection here uses. */
function openSqlite(file: string): Db {
  if (file !== ":memory:") ensurePrivateDir(path.dirname(file));
  const sqlite = new Database(file);
  sqlite.pragma("busy_timeout = 5000");
  useWal(sqlite);
  // FULL: a record the visitor was told is saved is on disk before the answer goes out.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  const db = new Kysely<DB>({ dialect: new WriterFirstSqliteDialect({ database: sqlite }) });
  handles.set(db, sqlite);
  return db;
}

/**
 * Switches a database to WAL. Switching needs the database to itself, and SQLite answers 'busy'
 * at once (no busy handler) while another process writes, such as the first of several WORKERS
 * migrating a new database: wait and try again, for up to 30 s, rather than fail the start.
 * Once a database is in WAL mode the switch is a no-op that needs no lock.
 */
function useWal(sqlite: Database.Database) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 1; ; attempt++) {
    try {
      sqlite.pragma("journal_mode = WAL");
      return;
    } catch (e) {
      if (attempt >= 300 || !/SQLITE_BUSY|database is locked/i.test(String((e as { code?: string }).code ?? e))) throw e;
      // Start-up only: a synchronous 100 ms wait keeps openDatabase synchronous.
      Atomics.wait(pause, 0, 0, 100);
    }
  }
}

/**
 * SQLite, with every transaction begun IMMEDIATE: it takes the write lock at its start (waiting
 * up to busy_timeout for another process's write to end) instead of at its first write. A
 * deferred transaction that reads and then writes fails with SQLITE_BUSY, which no wait can
 * cure, when another process (WORKERS, or `npm run backup` beside the server) wrote in between.
 */
class WriterFirstSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }

  override createAdapter(): DialectAdapter {
    return new MigrationLockingSqliteAdapter();
  }
}

/**
 * Kysely's SQLite adapter takes no migration lock (one connection, one process). Several
 * processes starting on one database (WORKERS) would run the same migration at once, and the
 * second fails ('table … already exists'). The lock here is SQLite's own write lock: the
 * migrations run inside one IMMEDIATE transaction on the connection the migrator holds, so the
 * next process waits, then finds them done.
 */
class MigrationLockingSqliteAdapter extends SqliteAdapter {
  #locked = false;

  override async acquireMigrationLock(db: Kysely<any>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await sql`begin immediate`.execute(db);
        this.#locked = true;
        return;
      } catch (e) {
        // busy_timeout already waited 5 s: another process is migrating a large change.
        if (attempt >= 12 || !/SQLITE_BUSY|database is locked/i.test(String(e))) throw e;
      }
    }
  }

  override async releaseMigrationLock(db: Kysely<any>): Promise<void> {
    // Called even when the lock was never taken: only a held lock is committed.
    if (!this.#locked) return;
    this.#locked = false;
    await sql`commit`.execute(db);
  }
}

const handles = new WeakMap<Db, Database.Database>();
const pools = new WeakMap<Db, { pool: pg.Pool; url: string }>();

/** The pg pool (and its URL) behind a PostgreSQL database opened here, for the shared rate limits and the change bus. */
export function postgresPoolOf(db: Db): { pool: pg.Pool; url: string } | undefined {
  return pools.get(db);
}

/** The SQLite connection behind a database opened here (the backup uses SQLite's own API on it). */
export function sqliteHandleOf(db: Db): Database.Database {
  const handle = handles.get(db);
  if (!handle) throw new Error("not a SQLite database opened by openDatabase");
  return handle;
}

export async function migrateToLatest(db: Db) {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
  return results ?? [];
}

let instance: Promise<Db> | undefined;

/** The app's one connection, opened and migrated on first use. */
export function getDb(): Promise<Db> {
  instance ??= (async () => {
    const config = env();
    const db = openDatabase(config.databaseUrl ?? config.databasePath, { poolSize: config.databasePoolSize });
    await migrateToLatest(db);
    return db;
  })();
  return instance;
}

export async function closeDb() {
  if (!instance) return;
  const db = await instance;
  instance = undefined;
  await db.destroy();
}

export const nowIso = () => new Date().toISOString();
