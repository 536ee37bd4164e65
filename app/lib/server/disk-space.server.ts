import fs from "node:fs";

/**
 * A full disk, seen before and while writes fail: /readyz reports the free space of DATA_DIR
 * (statfs) under DISK_MIN_FREE_MB, and the database's own 'disk full' answer (SQLITE_FULL,
 * PostgreSQL's 53100 disk_full, ENOSPC writing a file) until a write commits again.
 */

/** Free space under this (MB) makes /readyz say not ready, before writes start failing. */
export function diskMinFreeBytes(): number {
  const raw = process.env.DISK_MIN_FREE_MB?.trim();
  const mb = raw && /^\d{1,7}$/.test(raw) ? Number(raw) : 64;
  return mb * 1024 * 1024;
}

/** How long a 'disk full' answer counts when nothing has been written since. */
const FULL_STATE_MS = 60_000;

let fullSince = 0;
let fullAt = 0;

const FULL_CODES = new Set(["SQLITE_FULL", "53100", "ENOSPC", "EDQUOT"]);

/** Whether `error` (or its cause) says the disk (or the database's quota) is full. */
export function isDiskFull(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  const e = error as { code?: unknown; cause?: unknown; message?: unknown };
  if (typeof e.code === "string" && FULL_CODES.has(e.code)) return true;
  if (typeof e.message === "string" && /database or disk is full|no space left on device/i.test(e.message)) return true;
  return isDiskFull(e.cause, depth + 1);
}

/** Records a failed write; true when it was a full disk. */
export function noteDiskFull(error: unknown): boolean {
  if (!isDiskFull(error)) return false;
  const now = Date.now();
  if (!fullAt || now - fullAt > FULL_STATE_MS) fullSince = now;
  fullAt = now;
  return true;
}

/** A write committed: the database has room again. */
export function noteWriteCommitted() {
  fullAt = 0;
  fullSince = 0;
}

export function forgetDiskStateForTests() {
  noteWriteCommitted();
}

export type DiskCheck = { ok: boolean } & Record<string, string | number | boolean>;

/** The 'disk' check of /readyz. */
export async function diskCheck(dir: string): Promise<DiskCheck> {
  const check: DiskCheck = { ok: true };
  try {
    const s = await fs.promises.statfs(dir);
    const free = s.bavail * s.bsize;
    const min = diskMinFreeBytes();
    check.freeMb = Math.floor(free / (1024 * 1024));
    if (free < min) Object.assign(check, { ok: false, low: true, minFreeMb: min / (1024 * 1024) });
  } catch {
    Object.assign(check, { ok: false, error: "could not read the free space" });
  }
  if (fullAt && Date.now() - fullAt <= FULL_STATE_MS) {
    Object.assign(check, { ok: false, full: true, fullForSeconds: Math.round((Date.now() - fullSince) / 1000) });
  }
  return check;
}
