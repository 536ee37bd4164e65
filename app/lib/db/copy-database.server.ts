import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { putBlob } from "./blob-store.server";
import { migrateToLatest, sqliteHandleOf, type Db } from "./db.server";
import { isPostgres } from "./dialect.server";

/**
 * Moves a SQLite site onto PostgreSQL (`npm run db:copy -- postgres://…`): every table, row for
 * row, in one PostgreSQL transaction; then the files beside the database that PostgreSQL keeps
 * in stored_files (order images, share pages) and the secrets in site_secrets (the admin key
 * and staff sessions keep working). Checked by counting every table on both sides. The target
 * must hold no orders, applications or subscribers yet: a copy never merges two sites.
 */
export class CopyError extends Error {}

const PEOPLE_TABLES = ["badge_orders", "merch_orders", "applications", "subscribers"] as const;
const BATCH = 500;

export type CopyReport = { tables: { name: string; rows: number }[]; files: number; secrets: string[] };

export async function copySqliteToPostgres(source: Db, target: Db, dataDir: string): Promise<CopyReport> {
  if (isPostgres(source) || !isPostgres(target)) throw new CopyError("Copy from the SQLite database to a PostgreSQL one.");
  await migrateToLatest(source);
  await migrateToLatest(target);
  for (const t of PEOPLE_TABLES) {
    const n = await countRows(target, t);
    if (n > 0) throw new CopyError(`The PostgreSQL database already has ${n} row(s) in ${t}: copy into a new, empty database.`);
  }
  const names = (
    await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%' order by name`.execute(source)
  ).rows.map((r) => r.name);
  const targetTables = new Set(
    (await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = current_schema()`.execute(target)).rows.map((r) => r.t),
  );
  const missing = names.filter((n) => !targetTables.has(n));
  if (missing.length) throw new CopyError(`PostgreSQL has no table for ${missing.join(", ")}: are both on this version of the site?`);

  const sqlite = sqliteHandleOf(source);
  const ordered = parentsFirst(names, (t) => (sqlite.prepare(`pragma foreign_key_list("${t}")`).all() as { table: string }[]).map((f) => f.table));
  await target.transaction().execute(async (trx) => {
    // What the migrations and seeds of an empty site wrote is replaced by the site's own rows.
    await sql`truncate ${sql.join(names.map((n) => sql.table(n)))} restart identity`.execute(trx);
    for (const name of ordered) {
      // One read of the whole table (the site is stopped while it moves), in batches of inserts.
      let batch: Record<string, unknown>[] = [];
      for (const row of sqlite.prepare(`select * from "${name}"`).iterate() as Iterable<Record<string, unknown>>) {
        batch.push(row);
        if (batch.length === BATCH) {
          await trx.insertInto(name as never).values(batch as never).execute();
          batch = [];
        }
      }
      if (batch.length) await trx.insertInto(name as never).values(batch as never).execute();
      // Keys numbered by the database carry on after the copied ones.
      const hasId = await sql`select 1 from information_schema.columns where table_schema = current_schema() and table_name = ${name} and column_name = 'id'`.execute(trx);
      if (hasId.rows.length === 0) continue;
      const seq = (await sql<{ seq: string | null }>`select pg_get_serial_sequence(${name}, 'id') as seq`.execute(trx)).rows[0]?.seq;
      if (seq) await sql`select setval(${seq}, greatest((select max(id) from ${sql.table(name)}), 1))`.execute(trx);
    }
  });

  const tables: CopyReport["tables"] = [];
  for (const name of names) {
    const [from, to] = [await countRows(source, name), await countRows(target, name)];
    if (from !== to) throw new CopyError(`${name}: ${from} row(s) in SQLite but ${to} in PostgreSQL.`);
    tables.push({ name, rows: to });
  }

  let files = 0;
  for (const folder of ["badge-orders", path.join("team-badges", "shares")]) {
    for (const file of walk(path.join(dataDir, folder))) {
      const key = path.relative(dataDir, file).split(path.sep).join("/");
      if (folder === "badge-orders" && !/^badge-orders\/BO-[0-9A-Z]{6}\/((portrait|badge|poster|entry-qr)\.png|(portrait|poster)\.jpg)$/.test(key)) continue;
      if (folder !== "badge-orders" && !/^team-badges\/shares\/[a-z0-9_-]+\.json$/i.test(key)) continue;
      await putBlob(target, key, fs.readFileSync(file));
      files++;
    }
  }

  const secrets: string[] = [];
  for (const name of ["session-secret", "ob-signing-key", "admin-key"]) {
    const file = path.join(dataDir, name);
    if (!fs.existsSync(file)) continue;
    const value = fs.readFileSync(file, "utf8").trim();
    if (value.length < 16) continue;
    await target
      .insertInto("site_secrets")
      .values({ name, value, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("name").doUpdateSet({ value }))
      .execute();
    secrets.push(name);
  }
  return { tables, files, secrets };
}

/** Tables ordered so a table comes after those its foreign keys point at. */
function parentsFirst(names: string[], parentsOf: (t: string) => string[]) {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string) => {
    if (seen.has(t)) return;
    seen.add(t);
    for (const p of parentsOf(t)) if (p !== t && names.includes(p)) visit(p);
    out.push(t);
  };
  for (const t of names) visit(t);
  return out;
}

async function countRows(db: Db, table: string) {
  const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

function* walk(dir: string): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile() && !entry.name.endsWith(".tmp")) yield full;
  }
}
