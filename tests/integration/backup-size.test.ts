import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { attachBadgeAssets, submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { DEFAULT_EVENT } from "~/features/event-badges/event";
import { renderKit } from "~/features/event-badges/kit.server";
import { processPortrait } from "~/features/event-badges/portrait.server";
import { TIERS } from "~/features/event-badges/tiers";
import { staff } from "~/lib/core/actor";
import { restoreBackup, takeBackup } from "~/lib/db/backup.server";
import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { cameraPhoto } from "../support/camera-photo";
import { freshApp, testDatabaseKind } from "../support/reset";

const ORDERS = 500;
const MB = 1024 * 1024;
const STAFF = staff("10.0.0.7");

let db: Db;
beforeEach(async () => {
  db = await freshApp({ SMTP_URL: undefined });
});

/** A portrait as the order form makes it from a phone camera's 10 MB 4000x3000 JPEG (sensor noise and all). */
async function phonePortrait(): Promise<Buffer> {
  const photo = await cameraPhoto();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "backup-size-"));
  try {
    const file = path.join(dir, photo.name);
    fs.writeFileSync(file, photo.buffer);
    return await processPortrait({ path: file, bytes: photo.buffer.length });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// The backup is of the SQLite site (a PostgreSQL one is backed up with pg_dump).
describe.skipIf(testDatabaseKind === "postgres")("the size of a backup", () => {
  it(`a site with ${ORDERS} orders, each with a phone photo's portrait and its kit, backs up in under 150 MB`, async () => {
    // Three phone photos, each through the real pipeline (portrait, then badge and poster drawn with
    // it); the orders take them in turn. Every order keeps files of its own, as on a real site.
    const portraits = [await phonePortrait(), await phonePortrait(), await phonePortrait()];
    const kits = await Promise.all(
      portraits.map((portraitPng, i) =>
        renderKit({ tier: TIERS[i % TIERS.length]!, name: `Supporter ${i}`, portraitPng, shareUrl: "https://site.test/event", event: DEFAULT_EVENT }),
      ),
    );
    for (let i = 0; i < ORDERS; i++) {
      const which = i % portraits.length;
      const fields = { tierKey: TIERS[which % TIERS.length]!.key, name: `Backup Supporter ${i}`, email: `s${i}@example.org`, paymentReference: `BS${String(i).padStart(8, "0")}` };
      const { id } = await submitBadgeOrder(db, BadgeOrderSchema.parse(fields), portraits[which]!);
      await attachBadgeAssets(db, id, kits[which]!, STAFF);
    }

    const dir = fs.mkdtempSync(path.join(env().dataDir, "..", "backup-size-"));
    const { file } = await takeBackup({ db, databasePath: env().databasePath, dataDir: env().dataDir }, dir, 2);
    const size = fs.statSync(file).size;
    const perOrder = Math.round(size / ORDERS / 1024);
    console.log(`[backup] ${ORDERS} orders with phone photos: ${(size / MB).toFixed(1)} MB (${perOrder} kB an order; portrait ${portraits.map((p) => Math.round(p.length / 1024)).join("/")} kB, badge ${kits.map((k) => Math.round(k.badge.length / 1024)).join("/")} kB)`);
    expect(size).toBeLessThan(150 * MB);

    // And it is a whole backup: every order and its three pictures come back.
    const target = path.join(dir, "restored");
    await restoreBackup(file, target);
    const restored = new Database(path.join(target, "site.db"), { readonly: true });
    try {
      const rows = restored.prepare("select id, portrait_file, badge_file, poster_file from badge_orders").all() as Record<string, string>[];
      expect(rows).toHaveLength(ORDERS);
      for (const r of rows) {
        for (const f of [r.portrait_file, r.badge_file, r.poster_file]) expect(fs.existsSync(path.join(target, "badge-orders", r.id!, f!)), `${r.id} ${f}`).toBe(true);
      }
    } finally {
      restored.close();
    }
  }, 600_000);
});
