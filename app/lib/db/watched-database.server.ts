import type Database from "better-sqlite3";
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, Kysely } from "kysely";
import { assertDatabaseOpen, noteDatabaseError } from "./database-health.server";
import { noteDiskFull, noteWriteCommitted } from "../server/disk-space.server";

/**
 * The parts of the site's database that watch for it being away (app/lib/db/database-health.server.ts)
 * and that keep SQLite's waits for a lock from holding up the whole process; opened in
 * app/lib/db/db.server.ts.
 */

/** How long SQLite waits for another connection's write lock before answering SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Runs `work` with busy_timeout `ms` (it runs synchronously: better-sqlite3 does): "done",
 * "busy" (another connection held the lock throughout), "failed" (any other error), or, for work
 * that returns a promise (Kysely's connection, synchronous inside), that promise to await.
 */
export function waitingAtMost(sqlite: Database.Database, ms: number, work: () => unknown): "done" | "busy" | "failed" | { value: Promise<unknown> } {
  sqlite.pragma(`busy_timeout = ${ms}`);
  try {
    const result = work();
    if (result instanceof Promise) return { value: result };
    return "done";
  } catch (e) {
    return /^SQLITE_BUSY/.test(String((e as { code?: unknown }).code)) ? "busy" : "failed";
  } finally {
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}

/**
 * Whether the site could write now: the write lock taken and given back at once (no waiting:
 * better-sqlite3 waits synchronously, holding up every request), and the schema read. Not while
 * a transaction of this process is open on the connection: that says nothing, ask again later.
 */
export function probeSqlite(sqlite: Database.Database) {
  if (sqlite.inTransaction) throw new Error("busy here");
  sqlite.pragma("busy_timeout = 0");
  try {
    sqlite.exec("begin immediate");
    sqlite.exec("rollback");
    sqlite.prepare("select count(*) from sqlite_master").get();
  } finally {
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}

/**
 * The site's database, watched: a failure that means 'the database is away' starts an outage
 * (app/lib/db/database-health.server.ts); during one, and before the migrations have run, a request
 * is refused before it takes a connection, so none waits on a database that is not there (on
 * SQLite a wait holds up the whole process). Checked again once the connection is in hand: a
 * request queued behind the one that found the outage is refused too.
 */
export class WatchedDialect implements Dialect {
  constructor(private readonly inner: Dialect) {}
  createAdapter() {
    return this.inner.createAdapter();
  }
  createIntrospector(db: Kysely<any>) {
    return this.inner.createIntrospector(db);
  }
  createQueryCompiler() {
    return this.inner.createQueryCompiler();
  }
  createDriver(): Driver {
    const driver = this.inner.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    const watchedConnections = new WeakSet<DatabaseConnection>();
    driver.acquireConnection = async () => {
      assertDatabaseOpen();
      let connection: DatabaseConnection;
      try {
        connection = await acquire();
      } catch (e) {
        noteDatabaseError(e);
        throw e;
      }
      try {
        assertDatabaseOpen();
      } catch (e) {
        await driver.releaseConnection(connection);
        throw e;
      }
      if (!watchedConnections.has(connection)) {
        watchedConnections.add(connection);
        const execute = connection.executeQuery.bind(connection);
        connection.executeQuery = async <R>(query: CompiledQuery) => {
          try {
            const result = await execute<R>(query);
            if (/^\s*commit\b/i.test(query.sql)) noteWriteCommitted();
            return result;
          } catch (e) {
            noteDiskFull(e);
            noteDatabaseError(e);
            throw e;
          }
        };
      }
      return connection;
    };
    return driver;
  }
}
