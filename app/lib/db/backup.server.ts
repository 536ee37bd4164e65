import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import * as tar from "tar";
import { sqliteHandleOf, type Db } from "./db.server";
import { env } from "../server/env.server";
import { singleFlight } from "../core/single-flight";
import { decryptFile, encryptFile, isAgeFile, readIdentities, runBackupCommand } from "../server/backup-crypto.server";

/**
 * Backups a small site will actually have: a consistent online snapshot of the database, taken
 * with SQLite's own backup API (never a file copy of a live database), and the files beside it
 * (order portraits and kits, team badge images, queued mail, secrets), packed into one
 * `site-<time>.tar.gz` in BACKUP_DIR. The newest BACKUP_KEEP are kept. A snapshot is written
 * under a temporary name and renamed when complete, so a crash never leaves half a backup
 * looking like a whole one.
 */

export const BACKUP_PATTERN = /^site-\d{8}T\d{6}\d{3}Z\.tar\.gz(\.age)?$/;
const MANIFEST = "backup.json";

export type BackupResult = { file: string; bytes: number; ms: number; pages: number };

type Source = {
  /** The live database, written to while the snapshot runs (the server's own connection). */
  db?: Db;
  /** Or a database file another process may be using (the `npm run backup` command). */
  databasePath: string;
  dataDir: string;
};

const stampOf = (d: Date) => d.toISOString().replace(/[-:.]/g, "");

/** Names in DATA_DIR that are the database itself or its journals: the snapshot replaces them. */
function isDatabaseFile(name: string, databasePath: string) {
  const base = path.basename(databasePath);
  return name === base || name === `${base}-wal` || name === `${base}-shm` || name === `${base}-journal`;
}

function copyFilesBeside(source: Source, backupDir: string, into: string) {
  fs.mkdirSync(into, { recursive: true });
  if (!fs.existsSync(source.dataDir)) return;
  const skip = path.resolve(backupDir);
  for (const name of fs.readdirSync(source.dataDir)) {
    const from = path.join(source.dataDir, name);
    if (isDatabaseFile(name, source.databasePath) || path.resolve(from) === skip || name.startsWith(".backup-")) continue;
    // Anything under the folder that holds the backups is never copied into a backup.
    fs.cpSync(from, path.join(into, name), {
      recursive: true,
      filter: (src) => !path.resolve(src).startsWith(skip + path.sep) && path.resolve(src) !== skip,
    });
  }
}

async function snapshotDatabase(source: Source, to: string): Promise<number> {
  if (source.db) {
    // The server's own connection: what it writes meanwhile goes into the copy as it is made,
    // so the copy holds everything committed before it finishes (100 pages a step between
    // requests, never one long pause).
    const done = await sqliteHandleOf(source.db).backup(to);
    return done.totalPages;
  }
  if (!fs.existsSync(source.databasePath)) throw new Error(`There is no database at ${source.databasePath}.`);
  // Another process may be writing: copy every page in one step, which SQLite does under one
  // read transaction (a write from another connection would restart a copy made in steps).
  const live = new Database(source.databasePath, { fileMustExist: true });
  try {
    live.pragma("busy_timeout = 5000");
    const done = await live.backup(to, { progress: () => 0x7fffffff });
    return done.totalPages;
  } finally {
    live.close();
  }
}

/**
 * Takes one backup now into `backupDir` and keeps the newest `keep`. With `recipients` (age
 * public keys, BACKUP_RECIPIENTS) it is `site-<time>.tar.gz.age`, encrypted to them, and the
 * unencrypted tar never reaches the backup folder under its own name.
 */
export async function takeBackup(source: Source, backupDir: string, keep: number, recipients: readonly string[] = []): Promise<BackupResult> {
  const started = performance.now();
  fs.mkdirSync(backupDir, { recursive: true, mode: 0o700 });
  const stamp = stampOf(new Date());
  const work = fs.mkdtempSync(path.join(backupDir, ".partial-"));
  const name = `site-${stamp}.tar.gz${recipients.length ? ".age" : ""}`;
  const partial = path.join(backupDir, `.${name}.partial`);
  const tarball = recipients.length ? path.join(work, "backup.tar.gz") : partial;
  try {
    const pages = await snapshotDatabase(source, path.join(work, "site.db"));
    copyFilesBeside(source, backupDir, path.join(work, "files"));
    fs.writeFileSync(path.join(work, MANIFEST), JSON.stringify({ takenAt: new Date().toISOString(), format: 1, pages }, null, 2));
    await tar.c({ gzip: true, cwd: work, file: tarball, portable: true }, [MANIFEST, "site.db", "files"]);
    if (recipients.length) await encryptFile(tarball, partial, recipients);
    // Private whatever the process's umask: a backup holds every supporter's data.
    fs.chmodSync(partial, 0o600);
    const fd = fs.openSync(partial, "r");
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    const file = path.join(backupDir, name);
    fs.renameSync(partial, file);
    pruneBackups(backupDir, keep);
    return { file, bytes: fs.statSync(file).size, ms: Math.round(performance.now() - started), pages };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(partial, { force: true });
  }
}

/** The backups in a folder, oldest first. */
export function listBackups(backupDir: string): string[] {
  if (!fs.existsSync(backupDir)) return [];
  return fs
    .readdirSync(backupDir)
    .filter((n) => BACKUP_PATTERN.test(n))
    .sort()
    .map((n) => path.join(backupDir, n));
}

function pruneBackups(backupDir: string, keep: number) {
  const all = listBackups(backupDir);
  for (const file of all.slice(0, Math.max(0, all.length - keep))) fs.rmSync(file, { force: true });
}

export class RestoreError extends Error {}

/**
 * Restores a backup into an empty data folder (created if missing): the database at
 * `databasePath` (checked with SQLite's integrity check before anything is moved into place)
 * and the files beside it. A folder that holds anything is refused: a restore never mixes two
 * sites' data or overwrites one.
 */
export async function restoreBackup(file: string, dataDir: string, databasePath = path.join(dataDir, "site.db"), identityFile?: string) {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new RestoreError(`No backup file at ${file}.`);
  const encrypted = isAgeFile(file);
  let identities: string[] = [];
  if (encrypted) {
    if (!identityFile) throw new RestoreError(`${file} is encrypted: give the private key, \`npm run restore -- FILE --identity KEY_FILE\` (or BACKUP_IDENTITY_FILE).`);
    if (!fs.existsSync(identityFile)) throw new RestoreError(`No key file at ${identityFile}.`);
    identities = readIdentities(identityFile);
    if (!identities.length) throw new RestoreError(`${identityFile} holds no age private key (a line AGE-SECRET-KEY-1…).`);
  }
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new RestoreError(`${dataDir} is not empty: restore into an empty data folder.`);
  }
  if (fs.existsSync(databasePath)) throw new RestoreError(`${databasePath} already exists.`);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const work = fs.mkdtempSync(path.join(dataDir, ".restore-"));
  try {
    let tarball = file;
    if (encrypted) {
      tarball = path.join(work, "backup.tar.gz");
      try {
        await decryptFile(file, tarball, identities);
      } catch (e) {
        throw new RestoreError(`${file} could not be decrypted with the key in ${identityFile} (${e instanceof Error ? e.message : String(e)}).`);
      }
    }
    try {
      await tar.x({ file: tarball, cwd: work, strict: true, filter: (p) => p === MANIFEST || p === "site.db" || p.startsWith("files") });
    } catch (e) {
      throw new RestoreError(`${file} is not a backup this site can read (${e instanceof Error ? e.message : String(e)}).`);
    }
    const db = path.join(work, "site.db");
    if (!fs.existsSync(db) || !fs.existsSync(path.join(work, MANIFEST))) throw new RestoreError(`${file} is not a backup of this site.`);
    const check = new Database(db, { readonly: true, fileMustExist: true });
    try {
      const result = check.pragma("integrity_check", { simple: true });
      if (result !== "ok") throw new RestoreError(`The database in ${file} failed SQLite's integrity check: ${String(result)}.`);
    } finally {
      check.close();
    }
    const files = path.join(work, "files");
    if (encrypted) fs.rmSync(tarball, { force: true });
    if (fs.existsSync(files)) for (const name of fs.readdirSync(files)) fs.renameSync(path.join(files, name), path.join(dataDir, name));
    fs.mkdirSync(path.dirname(databasePath), { recursive: true, mode: 0o700 });
    fs.renameSync(db, databasePath);
    fs.chmodSync(databasePath, 0o600);
    return { databasePath, dataDir };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** BACKUP_COMMAND, when set, on the backup just taken: its outcome is logged, never thrown. */
export async function afterBackup(command: string | undefined, file: string, backupDir: string) {
  if (!command) return;
  const r = await runBackupCommand(command, file, backupDir);
  if (r.ok) console.log(`[backup] BACKUP_COMMAND done for ${path.basename(file)}${r.output ? `: ${r.output.slice(0, 500)}` : ""}`);
  else console.error(`[backup] BACKUP_COMMAND failed for ${path.basename(file)} (exit ${r.code ?? "none"}); the backup is still in ${backupDir}: ${r.output.slice(0, 2000)}`);
}

let timer: NodeJS.Timeout | undefined;
let runner: ReturnType<typeof singleFlight> | undefined;

/** With BACKUP_DIR set: a backup at start-up and every BACKUP_EVERY, never two at once. */
export function startBackups(db: Db) {
  const config = env();
  const dir = config.backupDir;
  if (!dir || runner) return;
  if (config.databaseUrl) {
    console.warn("[backup] BACKUP_DIR backs up a SQLite site; on PostgreSQL use pg_dump (README, 'Running on PostgreSQL'). None taken.");
    return;
  }
  const source = { db, databasePath: config.databasePath, dataDir: config.dataDir };
  runner = singleFlight("backup", async () => {
    const done = await takeBackup(source, dir, config.backupKeep, config.backupRecipients);
    console.log(`[backup] ${path.basename(done.file)}: ${(done.bytes / 1e6).toFixed(1)} MB in ${done.ms} ms (keeping ${config.backupKeep})`);
    await afterBackup(config.backupCommand, done.file, dir);
  });
  void runner.kick();
  timer = setInterval(() => void runner?.kick(), config.backupEveryMs);
  timer.unref();
}

export async function stopBackups() {
  if (timer) clearInterval(timer);
  timer = undefined;
  await runner?.idle();
  runner = undefined;
}
