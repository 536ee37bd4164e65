import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { getBlob, putBlob } from "~/lib/db/blob-store.server";
import type { Db } from "~/lib/db/db.server";
import { FileStep, readOldBytes, type RunContext } from "./run.server";

/**
 * The old site's other shared pictures (share/extra/: the series cover cis.jpg, which the series
 * and its share links name): each re-encoded as the image it claims to be (nothing but pixels
 * kept) and served again at /share/extra/{name}.
 */
export const EXTRA_FILE = /^([a-z0-9][a-z0-9_-]{0,79})\.(jpe?g|png|webp)$/i;
export const extraKey = (name: string) => `legacy/share-extra/${name.toLowerCase()}`;

export async function importShareExtras(ctx: RunContext, db: Db) {
  const step = await FileStep.open(ctx, db, "share_extra", "share/extra/", "shared pictures");
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(path.join(ctx.dir, "share/extra"), { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
  } catch {
    step.missing();
  }
  for (const name of names) {
    const m = EXTRA_FILE.exec(name);
    if (!m) {
      step.refuse(0, `share/extra/${name}: not a JPEG, PNG or WebP picture name`);
      continue;
    }
    if (step.seen(name.toLowerCase())) {
      step.skipped();
      continue;
    }
    await step.record(0, async () => {
      const bytes = readOldBytes(ctx, `share/extra/${name}`);
      if (!bytes) throw new Error(`share/extra/${name} could not be read`);
      const format = m[2]!.toLowerCase().startsWith("jp") ? "jpeg" : (m[2]!.toLowerCase() as "png" | "webp");
      let clean: Buffer;
      try {
        clean = await sharp(bytes, { limitInputPixels: 40_000_000 }).rotate().toFormat(format).toBuffer();
      } catch {
        throw new Error(`share/extra/${name} is not a picture that can be read`);
      }
      await putBlob(db, extraKey(name), clean);
      step.added();
      step.take(name.toLowerCase(), `/share/extra/${name}`);
    });
  }
  await step.close();
  return step.report;
}

/** A picture the import brought from share/extra/, with its type, or null. */
export async function shareExtra(db: Db, name: string): Promise<{ bytes: Buffer; type: string } | null> {
  const m = EXTRA_FILE.exec(name);
  if (!m) return null;
  const bytes = await getBlob(db, extraKey(name));
  if (!bytes) return null;
  const ext = m[2]!.toLowerCase();
  return { bytes, type: ext === "png" ? "image/png" : ext === "webp" ? "image/webp" : "image/jpeg" };
}
