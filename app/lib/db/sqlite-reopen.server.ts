import type Database from "better-sqlite3";
import type { SqliteDatabase } from "kysely";
import { withStatementCache } from "./sqlite-statements.server";
import { probeSqlite, SQLITE_BUSY_TIMEOUT_MS } from "./watched-database.server";

/**
 * The site's SQLite file behind a handle that can be replaced. SQLite opens a file it may not
 * write read-only, without a word, and a handle whose file was removed or replaced keeps the old
 * one: such a handle fails every write (SQLITE_READONLY, SQLITE_CANTOPEN…) for as long as the
 * process lives, long after an operator has fixed the file. While the database is away the
 * outage probe (app/lib/db/database-health.server.ts) asks `probe()`: it tries a write (undone) on
 * the handle, and when that fails because of the file, opens a new handle and puts it in place
 * once that one can write.
 */
export class SqliteFile {
  #current: Database.Database;
  #view: SqliteDatabase;

  constructor(
    private readonly open: () => Database.Database,
    first: Database.Database = open(),
  ) {
    this.#current = first;
    this.#view = withStatementCache(first);
  }

  get handle(): Database.Database {
    return this.#current;
  }

  /** What Kysely's driver is given: always the handle in place now. */
  readonly database: SqliteDatabase = {
    close: () => this.#current.close(),
    prepare: (source: string) => this.#view.prepare(source),
  };

  /** Throws while the site could not write; reopens the file when the handle is the trouble. */
  probe() {
    try {
      probeWrite(this.#current);
      return;
    } catch (e) {
      if (!fileTrouble(e)) throw e;
    }
    const fresh = this.open();
    try {
      probeWrite(fresh);
    } catch (e) {
      fresh.close();
      throw e;
    }
    const old = this.#current;
    this.#current = fresh;
    this.#view = withStatementCache(fresh);
    try {
      old.close();
    } catch {}
    console.log("[db] the SQLite file was opened again (the handle in use could not write to it)");
  }
}

/** Errors that mean this handle cannot write to its file, which a new handle may cure. */
const fileTrouble = (e: unknown) => /^SQLITE_(READONLY|CANTOPEN|IOERR)/.test(String((e as { code?: unknown })?.code ?? ""));

/** The write lock taken, one write made and undone: a handle opened read-only fails here. */
function probeWrite(sqlite: Database.Database) {
  probeSqlite(sqlite);
  const version = Number(sqlite.pragma("user_version", { simple: true }));
  sqlite.pragma("busy_timeout = 0");
  try {
    sqlite.exec("begin immediate");
    sqlite.pragma(`user_version = ${version}`);
  } finally {
    if (sqlite.inTransaction) sqlite.exec("rollback");
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}
