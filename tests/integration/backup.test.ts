import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { listBackups, restoreBackup, RestoreError, startBackups, stopBackups, takeBackup } from "~/lib/backup.server";
import type { Db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
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
      const file = path.join(target, "badge-orders", id, "portrait.png");
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
});
