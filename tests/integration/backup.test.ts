import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { generateIdentity, identityToRecipient } from "age-encryption";
import { afterBackup, listBackups, restoreBackup, RestoreError, startBackups, stopBackups, takeBackup } from "~/lib/db/backup.server";
import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { freshApp, testDatabaseKind } from "../support/reset";

let db: Db;
let scratch: string;
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: undefined });
  scratch = fs.mkdtempSync(path.join(env().dataDir, "..", "backup-test-"));
});

let codes = 0;
const nextCode = () => `BK${String(++codes).padStart(8, "0")}`;
const order = (portrait: Buffer | null) =>
  submitBadgeOrder(db, BadgeOrderSchema.parse({ tierKey: "t2", name: "Burst Supporter", email: "burst@example.org", paymentReference: nextCode() }), portrait);

const source = () => ({ db, databasePath: env().databasePath, dataDir: env().dataDir });

// BACKUP_DIR snapshots SQLite with its own backup API; a PostgreSQL site is backed up with
// pg_dump (README, 'Running on PostgreSQL'), and the server refuses to start BACKUP_DIR on it.
describe.skipIf(testDatabaseKind === "postgres")("backups", () => {
  it("a snapshot taken during a burst of orders restores every order acknowledged before it began, with its portrait", async () => {
    const portrait = await sharp({ create: { width: 720, height: 720, channels: 3, background: "#e0892b" } }).png().toBuffer();
    // A first wave, all acknowledged; a second wave still arriving while the snapshot runs.
    const first = await Promise.all(Array.from({ length: 40 }, (_, i) => order(i % 4 === 0 ? portrait : null)));
    const acknowledged = first.map((o) => o.id);
    const during = Array.from({ length: 40 }, () => order(null));
    const backupDir = path.join(scratch, "backups");
    const snapshot = await takeBackup(source(), backupDir, 48);
    await Promise.all(during);

    expect(path.basename(snapshot.file)).toMatch(/^site-\d{8}T\d{9}Z\.tar\.gz$/);
    expect(fs.statSync(snapshot.file).mode & 0o077).toBe(0);
    const target = path.join(scratch, "restored");
    await restoreBackup(snapshot.file, target);
    const restored = new Database(path.join(target, "site.db"), { readonly: true });
    try {
      const ids = new Set((restored.prepare("select id from badge_orders").all() as { id: string }[]).map((r) => r.id));
      for (const id of acknowledged) expect(ids.has(id), id).toBe(true);
      // Each stored order is whole: its payment code and its 'we received your order' email came with it.
      const claimed = restored.prepare("select count(*) as n from payment_codes").get() as { n: number };
      expect(claimed.n).toBe(ids.size);
      const mails = restored.prepare("select count(*) as n from outbox where kind = 'badge.received'").get() as { n: number };
      expect(mails.n).toBe(ids.size);
      expect(restored.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      restored.close();
    }
    for (const [i, id] of acknowledged.entries()) {
      const file = path.join(target, "badge-orders", id, "portrait.jpg");
      expect(fs.existsSync(file), id).toBe(i % 4 === 0);
    }
  });

  it("keeps the newest BACKUP_KEEP and never packs the backups into themselves", async () => {
    const backupDir = path.join(env().dataDir, "backups-inside");
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      made.push((await takeBackup(source(), backupDir, 2)).file);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(listBackups(backupDir)).toEqual(made.slice(1));
    const target = path.join(scratch, "restored");
    await restoreBackup(made[2]!, target);
    expect(fs.existsSync(path.join(target, "backups-inside"))).toBe(false);
    expect(fs.readdirSync(backupDir).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("a copy taken from outside the server (npm run backup) is consistent while the server writes", async () => {
    const writing = (async () => {
      for (let i = 0; i < 30; i++) await order(null);
    })();
    const done = await takeBackup({ databasePath: env().databasePath, dataDir: env().dataDir }, path.join(scratch, "cli"), 5);
    await writing;
    const target = path.join(scratch, "restored");
    await restoreBackup(done.file, target);
    const restored = new Database(path.join(target, "site.db"), { readonly: true });
    try {
      expect(restored.pragma("integrity_check", { simple: true })).toBe("ok");
      const orders = (restored.prepare("select count(*) as n from badge_orders").get() as { n: number }).n;
      const claimed = (restored.prepare("select count(*) as n from payment_codes").get() as { n: number }).n;
      expect(orders).toBe(claimed);
    } finally {
      restored.close();
    }
  });

  it("restores only into an empty folder, and only a backup of this site", async () => {
    const { file } = await takeBackup(source(), path.join(scratch, "b"), 5);
    const busy = path.join(scratch, "busy");
    fs.mkdirSync(busy);
    fs.writeFileSync(path.join(busy, "site.db"), "someone else's data");
    await expect(restoreBackup(file, busy)).rejects.toThrow(RestoreError);
    expect(fs.readFileSync(path.join(busy, "site.db"), "utf8")).toBe("someone else's data");

    const garbage = path.join(scratch, "garbage.tar.gz");
    fs.writeFileSync(garbage, "not a backup at all");
    await expect(restoreBackup(garbage, path.join(scratch, "g"))).rejects.toThrow(/not a backup/);
    await expect(restoreBackup(path.join(scratch, "missing.tar.gz"), path.join(scratch, "m"))).rejects.toThrow(/No backup file/);
  });

  it("with BACKUP_DIR set the server takes one at start-up (and then every BACKUP_EVERY)", async () => {
    const dir = path.join(scratch, "scheduled");
    db = await freshApp({ BACKUP_DIR: dir, BACKUP_EVERY: "1h", BACKUP_KEEP: "3" });
    await order(null);
    startBackups(db);
    await stopBackups();
    expect(listBackups(dir)).toHaveLength(1);
  });

  it("encrypted to BACKUP_RECIPIENTS: nothing readable in the file, restored end to end with the private key, refused without it", async () => {
    const portrait = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#2b8ae0" } }).png().toBuffer();
    const placed = await Promise.all(Array.from({ length: 12 }, (_, i) => order(i % 3 === 0 ? portrait : null)));
    const identity = await generateIdentity();
    const other = await generateIdentity();
    const keyFile = path.join(scratch, "backup-key.txt");
    fs.writeFileSync(keyFile, `# created: by age-keygen\n# public key: ${await identityToRecipient(identity)}\n${identity}\n`);
    const wrongKey = path.join(scratch, "wrong-key.txt");
    fs.writeFileSync(wrongKey, `${other}\n`);

    // A secret kept beside the database, as the session secret and a generated admin key are.
    const secret = `secret-${Math.random().toString(36).slice(2)}-only-the-site-knows`;
    fs.writeFileSync(path.join(env().dataDir, "test-secret"), secret, { mode: 0o600 });
    const dir = path.join(scratch, "encrypted");
    const done = await takeBackup(source(), dir, 5, [await identityToRecipient(identity)]);
    expect(path.basename(done.file)).toMatch(/^site-\d{8}T\d{9}Z\.tar\.gz\.age$/);
    expect(listBackups(dir)).toEqual([done.file]);
    expect(fs.readdirSync(dir)).toEqual([path.basename(done.file)]);
    expect(fs.statSync(done.file).mode & 0o077).toBe(0);
    const bytes = fs.readFileSync(done.file);
    expect(bytes.subarray(0, 22).toString("latin1")).toBe("age-encryption.org/v1\n");
    // Neither the tar's names nor the secret in clear.
    for (const clear of ["backup.json", "site.db", secret]) expect(bytes.includes(Buffer.from(clear)), clear).toBe(false);

    await expect(restoreBackup(done.file, path.join(scratch, "no-key"))).rejects.toThrow(/is encrypted: give the private key/);
    await expect(restoreBackup(done.file, path.join(scratch, "wrong"), undefined, wrongKey)).rejects.toThrow(/could not be decrypted/);
    const target = path.join(scratch, "restored-encrypted");
    await restoreBackup(done.file, target, undefined, keyFile);
    const restored = new Database(path.join(target, "site.db"), { readonly: true });
    const live = new Database(env().databasePath, { readonly: true });
    try {
      for (const table of ["badge_orders", "payment_codes", "outbox", "activity"]) {
        const count = (d: Database.Database) => (d.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
        expect(count(restored), table).toBe(count(live));
      }
      expect(restored.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      restored.close();
      live.close();
    }
    expect(fs.readFileSync(path.join(target, "test-secret"), "utf8")).toBe(secret);
    for (const [i, o] of placed.entries()) expect(fs.readdirSync(path.join(target, "badge-orders")).includes(o.id), o.id).toBe(i % 3 === 0);
    expect(fs.readdirSync(target).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("BACKUP_COMMAND runs after a backup with BACKUP_FILE set; a failing one is logged and the backup kept", async () => {
    const dir = path.join(scratch, "with-command");
    const offsite = path.join(scratch, "offsite");
    fs.mkdirSync(offsite);
    const { file } = await takeBackup(source(), dir, 5);
    const logged: string[] = [];
    const log = console.log;
    const error = console.error;
    console.log = (m: string) => void logged.push(m);
    console.error = (m: string) => void logged.push(m);
    try {
      await afterBackup(`cp "$BACKUP_FILE" '${offsite}/' && echo copied`, file, dir);
      await afterBackup("echo no route to host >&2; exit 3", file, dir);
    } finally {
      console.log = log;
      console.error = error;
    }
    expect(fs.readFileSync(path.join(offsite, path.basename(file)))).toEqual(fs.readFileSync(file));
    expect(logged[0]).toBe(`[backup] BACKUP_COMMAND done for ${path.basename(file)}: copied`);
    expect(logged[1]).toBe(`[backup] BACKUP_COMMAND failed for ${path.basename(file)} (exit 3); the backup is still in ${dir}: no route to host`);
    expect(fs.existsSync(file)).toBe(true);
  });
});
