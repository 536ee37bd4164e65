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
import type { DB } from "../../database";
import { SqliteFile } from "./sqlite-reopen.server";
import { DeadlineClient } from "./postgres-deadline.server";
import { markDatabaseReady, noteDatabaseError, runUngated, unwatchDatabase, watchDatabase } from "./database-health.server";
import { isDatabaseUnavailable } from "../core/database-unavailable";
import { ensurePrivateDir } from "../server/files.server";
export { isPostgres } from "./dialect.server";
import { env } from "../server/env.server";
import { SQLITE_BUSY_TIMEOUT_MS, waitingAtMost, WatchedDialect } from "./watched-database.server";

// The server build bundles app code, so the migrations are gathered at build time (every file
// in db/migrations, by name) rather than found by scanning a folder at run time.
const migrationFiles = import.meta.glob<Migration>(["/db/migrations/*.ts", "!/db/migrations/*.test.ts"], { eager: true });
const migrations: Record<string, Migration> = Object.fromEntries(
  Object.entries(migrationFiles)
    .map(([file, migration]) => [path.basename(file, ".ts"), migration] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
);

export type { DB };
export type Db = Kysely<DB>;

/** The migrations this build knows, in order (the readiness check compares the database's). */
export const migrationNames = () => Object.keys(migrations);

/**
 * Opens the site's database: PostgreSQL for a postgres:// URL, else the SQLite file at `target`.
 * `watched`: the site's own database (getDb), whose outages the server answers with 503s
 * (app/lib/db/database-health.server.ts).
 */
export function openDatabase(target: string, opts: { poolSize?: number; watched?: boolean } = {}): Db {
  return isPostgresUrl(target) ? openPostgres(target, opts.poolSize ?? 10, !!opts.watched) : openSqlite(target, !!opts.watched);
}

/** How long a request waits for a PostgreSQL connection (a free one in the pool, or a new one). */
export const CONNECTION_WAIT_MS = 5_000;

export const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/**
 * PostgreSQL through a pool of `pg` connections. Counts and sums come back as numbers, as they
 * do from SQLite (pg's default for bigint and numeric is a string); the site's counts are far
 * below 2^53.
 */
function openPostgres(url: string, poolSize: number, watched: boolean): Db {
  const types = {
    getTypeParser(oid: number, format?: "text" | "binary") {
      if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (v: string) => Number(v);
      return pg.types.getTypeParser(oid, format as "text");
    },
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: types as pg.CustomTypesConfig,
    // A database that is away refuses at once; one that does not answer at all (or a pool with
    // every connection busy) makes a request wait this long at most, then it is told 503.
    connectionTimeoutMillis: CONNECTION_WAIT_MS,
    keepAlive: true,
    statement_timeout: 30_000,
    lock_timeout: 10_000,
    idle_in_transaction_session_timeout: 60_000,
    // The site's queries answer within QUERY_DEADLINE_MS or are given up on here, even when the
    // server itself cannot answer (app/lib/db/postgres-deadline.server.ts).
    ...(watched ? { Client: DeadlineClient } : {}),
  });
  // A connection the server drops (a restart, an idle timeout) must not end the process: idle
  // ones are the pool's 'error', checked-out ones (between a transaction's statements) the
  // client's own 'error', which with no listener would be an uncaught exception. The query
  // under way, if any, fails on its own and is answered 503.
  const lost = (e: Error) => {
    if (watched) noteDatabaseError(e);
    if (!isDatabaseUnavailable(e)) console.error("[db] PostgreSQL connection failed:", e.message);
  };
  pool.on("error", lost);
  pool.on("connect", (client) => client.on("error", lost));
  const dialect = new PostgresDialect({ pool });
  const db = new Kysely<DB>({ dialect: watched ? new WatchedDialect(dialect) : dialect });
  pools.set(db, { pool, url });
  if (watched) watchDatabase(() => pool.query("select 1"));
  return db;
}

/** Opens a SQLite database file with the settings every connection here uses. */
function openSqlite(file: string, watched = false): Db {
  if (file !== ":memory:") ensurePrivateDir(path.dirname(file));
  const open = () => {
    const sqlite = new Database(file);
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    useWal(sqlite);
    // FULL: a record the visitor was told is saved is on disk before the answer goes out.
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    return sqlite;
  };
  // The site's own file can be opened again while it serves (app/lib/db/sqlite-reopen.server.ts).
  const sqliteFile = new SqliteFile(open);
  const dialect = new WriterFirstSqliteDialect(sqliteFile);
  const db = new Kysely<DB>({ dialect: watched ? new WatchedDialect(dialect) : dialect });
  handles.set(db, sqliteFile);
  if (watched) watchDatabase(() => sqliteFile.probe());
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
  constructor(private readonly file: SqliteFile) {
    super({ database: file.database });
  }

  /**
   * SQLite's busy handler sleeps inside the call: while the lock is held elsewhere it holds up
   * every request of this process, cached pages too, for up to busy_timeout. So the wait is cut
   * into short ones here: a first of 250 ms (another server process's transactions take
   * milliseconds, and SQLite's own fine-grained retries keep the processes taking turns), then
   * 25 ms at a time with the event loop free in between. Past busy_timeout the last try's
   * SQLITE_BUSY is the answer, as before.
   */
  override createDriver(): Driver {
    const driver = super.createDriver();
    const file = this.file;
    driver.beginTransaction = async (connection) => {
      const sqlite = file.handle;
      const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
      for (let wait = 250; Date.now() < deadline; wait = 25) {
        const tried = waitingAtMost(sqlite, wait, () => sqlite.exec("begin immediate"));
        if (tried === "done") return;
        if (tried === "failed") break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // The last try goes the usual way, so its error is seen (and counted) like any other.
      const last = waitingAtMost(sqlite, 0, () => connection.executeQuery(CompiledQuery.raw("begin immediate")));
      if (typeof last === "object") await last.value;
      else if (last !== "done") throw new Error("could not begin a transaction");
    };
    // SQLite ends a transaction by itself on some failures (SQLITE_FULL, SQLITE_IOERR, …): a
    // ROLLBACK then fails with 'no transaction is active', and Kysely would throw that instead
    // of the real error (a 500 where the disk being full is a 503).
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (!file.handle.inTransaction) return;
      await rollback(connection);
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
    // busy_timeout waits up to 5 s (holding up the process) for another process migrating; past
    // that the server tries again in the background while it serves (app/server/server.ts).
    await sql`begin immediate`.execute(db);
    this.#locked = true;
  }

  override async releaseMigrationLock(db: Kysely<any>): Promise<void> {
    // Called even when the lock was never taken: only a held lock is committed.
    if (!this.#locked) return;
    this.#locked = false;
    await sql`commit`.execute(db);
  }
}

const handles = new WeakMap<Db, SqliteFile>();
const pools = new WeakMap<Db, { pool: pg.Pool; url: string }>();

/** The pg pool (and its URL) behind a PostgreSQL database opened here, for the shared rate limits and the change bus. */
export function postgresPoolOf(db: Db): { pool: pg.Pool; url: string } | undefined {
  return pools.get(db);
}

/** The SQLite connection behind a database opened here (the backup uses SQLite's own API on it). */
export function sqliteHandleOf(db: Db): Database.Database {
  const handle = handles.get(db);
  if (!handle) throw new Error("not a SQLite database opened by openDatabase");
  return handle.handle;
}

export async function migrateToLatest(db: Db) {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`, { cause: error });
  }
  return results ?? [];
}

let site: Db | undefined;
let migrated = false;
let migrating: Promise<Db> | undefined;

/**
 * The site's database, opened (once) but not necessarily migrated: the server starts with it
 * while the database is away. Queries fail fast (DatabaseUnavailableError) until getDb() has
 * migrated it.
 */
export function siteDb(): Db {
  if (!site) {
    const config = env();
    site = openDatabase(config.databaseUrl ?? config.databasePath, { poolSize: config.databasePoolSize, watched: true });
  }
  return site;
}

/**
 * The app's one connection, opened and migrated on first use. While the database is away the
 * migration fails (and the next call tries again); callers that find it away are answered at once.
 */
export function getDb(): Promise<Db> {
  if (site && migrated) return Promise.resolve(site);
  migrating ??= (async () => {
    try {
      const db = siteDb();
      await runUngated(() => migrateToLatest(db));
      migrated = true;
      markDatabaseReady();
      return db;
    } finally {
      migrating = undefined;
    }
  })();
  return migrating;
}

export async function closeDb() {
  await migrating?.catch(() => {});
  const db = site;
  site = undefined;
  migrated = false;
  unwatchDatabase();
  await db?.destroy();
}

export const nowIso = () => new Date().toISOString();
