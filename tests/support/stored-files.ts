import fs from "node:fs";
import path from "node:path";
import { getBlob } from "~/lib/db/blob-store.server";
import { isPostgres } from "~/lib/db/dialect.server";
import { currentTestDb } from "./reset";

/**
 * The stored files of the running test's site, whichever database holds them: files in
 * DATA_DIR on SQLite, rows of stored_files on PostgreSQL (app/lib/db/blob-store.server.ts).
 */
export const readStored = (key: string) => getBlob(currentTestDb(), key);

/** The names directly under `prefix` ('badge-orders' → order ids; 'badge-orders/BO-…' → file names). */
export async function storedNames(prefix: string): Promise<string[]> {
  const db = currentTestDb();
  if (!isPostgres(db)) {
    const dir = path.join(process.env.DATA_DIR!, ...prefix.split("/"));
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  }
  const rows = await db.selectFrom("stored_files").select("key").where("key", "like", `${prefix}/%`).execute();
  return [...new Set(rows.map((r) => r.key.slice(prefix.length + 1).split("/")[0]!))].sort();
}

/** Removes one stored file, as a disk fault or an operator might. */
export async function removeStored(key: string) {
  const db = currentTestDb();
  if (!isPostgres(db)) fs.rmSync(path.join(process.env.DATA_DIR!, ...key.split("/")));
  else await db.deleteFrom("stored_files").where("key", "=", key).execute();
}
