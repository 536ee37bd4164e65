import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";

/**
 * Everything under DATA_DIR is private: folders 0700, files 0600, whatever the process umask.
 * Nothing there is ever served as a static file, and no other user on the machine may read it.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates a folder (and its parents) readable by this user only. */
export function ensurePrivateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Writes a file atomically and durably: a private temporary file, synced, then renamed over
 * the target, so a reader sees the old bytes or the new ones, never half, even after a crash.
 */
export async function writePrivateFile(file: string, bytes: Buffer | Uint8Array | string) {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`;
  const handle = await fsp.open(tmp, "w", PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}

/**
 * Tightens a data folder made by an earlier version (0755 folders, 0644 files): the folder and
 * the database files beside it become private. Best effort: a file that is not ours is left.
 */
export function tightenDataDir(dataDir: string, files: string[]) {
  ensurePrivateDir(dataDir);
  for (const [p, mode] of [[dataDir, PRIVATE_DIR_MODE] as const, ...files.map((f) => [f, PRIVATE_FILE_MODE] as const)]) {
    try {
      fs.chmodSync(p, mode);
    } catch {
      /* missing, or not ours */
    }
  }
  for (const name of ["outbox", "badge-orders", "team-badges"]) {
    try {
      fs.chmodSync(path.join(dataDir, name), PRIVATE_DIR_MODE);
    } catch {
      /* not made yet */
    }
  }
}
