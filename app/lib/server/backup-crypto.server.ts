import { spawn } from "node:child_process";
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Backups that can leave the machine: each one encrypted with age (age-encryption.org/v1, the
 * format of the `age` command-line tool) to the public keys in BACKUP_RECIPIENTS, so a copy on
 * another host holds nothing readable (supporters' data, the admin key, the session secret)
 * without the private key, which never needs to be on the server. Streamed in 64 kB chunks: a
 * 150 MB backup costs no 150 MB of memory.
 */

/** An age X25519 public key: `age1` and 58 bech32 characters. */
export const AGE_RECIPIENT = /^age1[02-9ac-hj-np-z]{58}$/;
/** The first line of every age file. */
const AGE_HEADER = "age-encryption.org/v1\n";

export async function encryptFile(plain: string, encrypted: string, recipients: readonly string[]) {
  // Loaded when a backup is taken, not at start: the server keeps its memory for visitors.
  const { Encrypter } = await import("age-encryption");
  const e = new Encrypter();
  for (const r of recipients) e.addRecipient(r);
  const out = await e.encrypt(Readable.toWeb(fs.createReadStream(plain)) as ReadableStream<Uint8Array>);
  await pipeline(Readable.fromWeb(out as unknown as import("node:stream/web").ReadableStream<Uint8Array>), fs.createWriteStream(encrypted, { mode: 0o600 }));
}

/** True when the file starts as an age file does. */
export function isAgeFile(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(AGE_HEADER.length);
    fs.readSync(fd, head, 0, head.length, 0);
    return head.toString("latin1") === AGE_HEADER;
  } finally {
    fs.closeSync(fd);
  }
}

/** The AGE-SECRET-KEY-1… lines of an identity file (as `age-keygen` writes it; # lines are comments). */
export function readIdentities(file: string): string[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^AGE-SECRET-KEY-1[0-9A-Z]+$/.test(l));
}

export async function decryptFile(encrypted: string, plain: string, identities: readonly string[]) {
  const { Decrypter } = await import("age-encryption");
  const d = new Decrypter();
  for (const i of identities) d.addIdentity(i);
  const out = await d.decrypt(Readable.toWeb(fs.createReadStream(encrypted)) as ReadableStream<Uint8Array>);
  await pipeline(Readable.fromWeb(out as unknown as import("node:stream/web").ReadableStream<Uint8Array>), fs.createWriteStream(plain, { mode: 0o600 }));
}

/**
 * BACKUP_COMMAND after a backup: run by /bin/sh with BACKUP_FILE set to the new file (and
 * BACKUP_DIR), e.g. `rclone copy "$BACKUP_FILE" offsite:site-backups`. Its output is logged;
 * a failure is logged and the backup stays where it is. Stopped after `timeoutMs`.
 */
export function runBackupCommand(command: string, file: string, backupDir: string, timeoutMs = 15 * 60_000): Promise<{ ok: boolean; code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", command], {
      env: { ...process.env, BACKUP_FILE: file, BACKUP_DIR: backupDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (d: Buffer) => {
      if (output.length < 8000) output += d.toString("utf8");
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ ok: false, code: null, output: e.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, code, output: output.trim() });
    });
  });
}
