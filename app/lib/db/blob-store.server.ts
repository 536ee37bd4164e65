import fs from "node:fs/promises";
import path from "node:path";
import type { Db } from "./db.server";
import { nowIso } from "./db.server";
import { isPostgres } from "./dialect.server";
import { env } from "../server/env.server";
import { writePrivateFile } from "../server/files.server";
import { escapeLike } from "./sql.server";

/**
 * Stored files (order images, staff-set share pages) by key, such as
 * 'badge-orders/BO-ABC123/portrait.png'. On SQLite (one machine) they are private files in
 * DATA_DIR, beside the database, and the backups pack them with it. On PostgreSQL they are
 * rows of stored_files, so every process and machine serves the same bytes and the database's
 * own backup holds them. Keys are built by the site from checked ids and fixed names, and are
 * checked again here: never a path from a client.
 */
const KEY = /^[a-z-]+(\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,80})*$/;

function checkedKey(key: string) {
  if (!KEY.test(key) || key.split("/").some((part) => part === "." || part === "..")) throw new Error(`not a stored-file key: ${key}`);
  return key;
}

/** `prefix/%` as a LIKE pattern, its own %, _ and \ matched as themselves. */
const under = (prefix: string) => `${escapeLike(checkedKey(prefix))}/%`;

const fileOf = (key: string) => path.join(env().dataDir, ...checkedKey(key).split("/"));

/** Stores `bytes` under `key` (replacing what was there), durably, before it returns. */
export async function putBlob(db: Db, key: string, bytes: Buffer | string) {
  if (!isPostgres(db)) return writePrivateFile(fileOf(key), bytes);
  const buffer = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
  await db
    .insertInto("stored_files")
    .values({ key: checkedKey(key), bytes: buffer, updated_at: nowIso() })
    .onConflict((oc) => oc.column("key").doUpdateSet({ bytes: buffer, updated_at: nowIso() }))
    .execute();
}

/** The bytes under `key`, or null when there are none. */
export async function getBlob(db: Db, key: string): Promise<Buffer | null> {
  if (!isPostgres(db)) return fs.readFile(fileOf(key)).catch(() => null);
  const row = await db.selectFrom("stored_files").select("bytes").where("key", "=", checkedKey(key)).executeTakeFirst();
  return row ? Buffer.from(row.bytes) : null;
}

/** True when something is stored under `key`. */
export async function hasBlob(db: Db, key: string): Promise<boolean> {
  if (!isPostgres(db)) return fs.stat(fileOf(key)).then((s) => s.isFile(), () => false);
  const row = await db.selectFrom("stored_files").select("key").where("key", "=", checkedKey(key)).executeTakeFirst();
  return !!row;
}

/** Removes everything stored under the folder-like `prefix` ('badge-orders/BO-ABC123'). */
export async function deleteBlobs(db: Db, prefix: string) {
  if (!isPostgres(db)) return fs.rm(fileOf(prefix), { recursive: true, force: true });
  await db.deleteFrom("stored_files").where("key", "like", under(prefix)).execute();
}

/** The names of the files directly under the folder-like `prefix` ('team-badges' → 'b1-….png', …). */
export async function listBlobs(db: Db, prefix: string): Promise<string[]> {
  if (!isPostgres(db)) {
    const entries = await fs.readdir(fileOf(prefix), { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile()).map((e) => e.name).sort();
  }
  const rows = await db.selectFrom("stored_files").select("key").where("key", "like", under(prefix)).execute();
  return rows
    .map((r) => r.key.slice(prefix.length + 1))
    .filter((rest) => !rest.includes("/"))
    .sort();
}

/** Removes one stored file (nothing when there is none). */
export async function deleteBlob(db: Db, key: string) {
  if (!isPostgres(db)) return fs.rm(fileOf(key), { force: true });
  await db.deleteFrom("stored_files").where("key", "=", checkedKey(key)).execute();
}
