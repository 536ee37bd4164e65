import {
  PostgresAdapter,
  sql,
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type ColumnDataType,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
} from "kysely";

/**
 * Every difference between SQLite and PostgreSQL the site cares about, in one place. Features
 * and migrations write portable SQL and call these where the two databases disagree; each
 * takes the database (or transaction) it is for, so one process can hold both kinds (the copy
 * command does).
 */

/** True when `db` (or a transaction of it) talks to PostgreSQL. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

// ------------------------------------------------------------------------------ schema

/** An integer key the database numbers itself: `integer primary key autoincrement` / `serial primary key`. */
export function idColumn(db: Kysely<any>): [ColumnDataType, (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder] {
  return isPostgres(db) ? ["serial", (c) => c.primaryKey()] : ["integer", (c) => c.primaryKey().autoIncrement()];
}

/** A table stored by its primary key alone (SQLite's WITHOUT ROWID; PostgreSQL has no such choice). */
export function compactTable(db: Kysely<any>) {
  return <B extends CreateTableBuilder<any, any>>(t: B): B => (isPostgres(db) ? t : (t.modifyEnd(sql`without rowid`) as B));
}

// ------------------------------------------------------------------------------ queries

/** The larger of two values: SQLite's two-argument max(), PostgreSQL's greatest(). */
export function greatest<T>(db: Kysely<any>, a: RawBuilder<T> | RawBuilder<unknown>, b: RawBuilder<T> | RawBuilder<unknown>) {
  return isPostgres(db) ? sql<T>`greatest(${a}, ${b})` : sql<T>`max(${a}, ${b})`;
}

/**
 * SQLite's NOT INDEXED (walk the rowid range, not an index over the whole period); PostgreSQL
 * plans that itself.
 */
export function notIndexed(db: Kysely<any>) {
  return isPostgres(db) ? sql`` : sql`not indexed`;
}

/**
 * The host of an absolute referrer held in `ref` ('' for a path on this site or none), in SQL:
 * the part between '://' and the next '/', without a port, lower-cased.
 */
export function refHost(db: Kysely<any>) {
  if (isPostgres(db)) {
    return sql<string>`lower(split_part(split_part(case when strpos(ref, '://') > 0 then split_part(ref, '://', 2) else ref end, '/', 1), ':', 1))`;
  }
  return sql<string>`lower(substr(
  substr(substr(ref, instr(ref, '://') + 3), 1, instr(substr(ref, instr(ref, '://') + 3) || '/', '/') - 1),
  1,
  instr(substr(substr(ref, instr(ref, '://') + 3), 1, instr(substr(ref, instr(ref, '://') + 3) || '/', '/') - 1) || ':', ':') - 1
))`;
}

/**
 * Locks the rows a read-modify-write transaction reads (SELECT … FOR UPDATE), so a second
 * transaction on them waits instead of overwriting the first one's change. SQLite needs none:
 * its transactions here begin IMMEDIATE and hold the whole database.
 */
export function lockedForUpdate(db: Kysely<any>) {
  return <Q extends SelectQueryBuilder<any, any, any>>(q: Q): Q => (isPostgres(db) ? (q.forUpdate() as Q) : q);
}

/** True for a unique-constraint violation from either database. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/**
 * Holds a lock named `name` until the transaction ends, so two transactions about the same
 * thing (one M-Pesa receipt, say) run one after the other even when the row they would lock
 * does not exist yet: PostgreSQL's transaction-level advisory lock. SQLite needs none: its
 * transactions here begin IMMEDIATE and hold the whole database.
 */
export async function lockName(trx: Kysely<any>, name: string): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(trx);
}
