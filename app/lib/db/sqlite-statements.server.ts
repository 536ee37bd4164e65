import type Database from "better-sqlite3";
import type { SqliteDatabase } from "kysely";

/** Distinct statements kept prepared per connection (the site runs a few hundred at most). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite connection as Kysely sees it, with prepared statements kept and reused: Kysely
 * prepares every query anew, and compiling the SQL cost more than running it for the small
 * reads and writes of an order (about ten per order). Only Kysely's queries go through this
 * view (they never change a statement's modes: pluck, raw, expand); a statement still being
 * iterated (a stream) is not handed out twice. A schema change makes SQLite recompile a kept
 * statement by itself.
 */
export function withStatementCache(sqlite: Database.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const kept = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(source: string) {
      const hit = kept.get(source);
      if (hit && !hit.busy) {
        // Most recently used last: the oldest is the first to go.
        kept.delete(source);
        kept.set(source, hit);
        return hit;
      }
      const statement = sqlite.prepare(source);
      if (!hit) {
        kept.set(source, statement);
        if (kept.size > size) kept.delete(kept.keys().next().value!);
      }
      return statement;
    },
  };
}
