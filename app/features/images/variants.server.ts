import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pLimit from "p-limit";
import sharp from "sharp";
import { keptPromises } from "../../lib/server/kept-promises.server.ts";
import { VARIANT_FORMATS, VARIANT_SOURCE, VARIANT_WIDTHS, variantPath, type VariantFormat } from "./responsive.ts";

/**
 * Image variants (/img/:width/images/….<avif|webp>): the site's own picture resized to one of
 * VARIANT_WIDTHS (never enlarged) and encoded as AVIF or WebP. The build makes every one of
 * them as static files (build/client/img, see buildImageVariants), served like any other file;
 * this route answers for the rest (the dev server, a picture added after the build): made once
 * per process on first request and kept in memory (a few kB each; the originals are part of
 * the build, so every process makes the same bytes and nothing needs sharing).
 */
export type Variant = { bytes: Buffer; type: string; etag: string };

const kept = keptPromises<Variant | null>(300);

/** Where the originals are: the built client files, or public/ when running from source. */
const roots = () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [path.resolve(here, "../client"), path.resolve(process.cwd(), "build/client"), path.resolve(process.cwd(), "public")];
};

async function readOriginal(src: string): Promise<Buffer | null> {
  for (const root of roots()) {
    const file = path.resolve(root, `.${src}`);
    if (!file.startsWith(path.join(root, "images") + path.sep)) continue;
    try {
      return await fs.readFile(file);
    } catch {
      /* not in this root */
    }
  }
  return null;
}

/** Width, format and original from /img/<width>/<original path>.<format>, or null for anything else. */
export function parseVariant(width: string | undefined, rest: string | undefined) {
  const w = Number(width);
  const m = /^(.+)\.([a-z]+)$/.exec(rest ?? "");
  const format = m?.[2];
  const src = `/${m?.[1] ?? ""}`;
  if (!(VARIANT_WIDTHS as readonly number[]).includes(w)) return null;
  if (!(VARIANT_FORMATS as readonly string[]).includes(format ?? "")) return null;
  if (!VARIANT_SOURCE.test(src)) return null;
  return { width: w, format: format as VariantFormat, src };
}

/** One variant's bytes: the build (vite.config.ts) and this route make them the same way. */
export async function encodeVariant(original: Buffer, width: number, format: VariantFormat): Promise<Buffer> {
  const resized = sharp(original, { limitInputPixels: 40_000_000 }).rotate().resize({ width, withoutEnlargement: true });
  return format === "avif" ? resized.avif({ quality: 50, effort: 4 }).toBuffer() : resized.webp({ quality: 72, effort: 5 }).toBuffer();
}

async function make(src: string, width: number, format: VariantFormat): Promise<Variant | null> {
  const original = await readOriginal(src);
  if (!original) return null;
  const bytes = await encodeVariant(original, width, format);
  return { bytes, type: `image/${format}`, etag: `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"` };
}

/** The variant, made now or earlier; null when there is no such picture. */
export function imageVariant(src: string, width: number, format: VariantFormat): Promise<Variant | null> {
  const key = `${width}/${format}${src}`;
  return kept(key, () => make(src, width, format)).catch((e) => {
    console.error(`[images] could not make ${key}`, e);
    return null;
  });
}

/**
 * The build's part (vite.config.ts, after the client build): every variant of every picture
 * under public/images written into the client build, so none is made while a visitor waits.
 * Encodings are kept in `cacheDir` by the original's hash, so a rebuild makes only new ones.
 */
export async function buildImageVariants(publicDir: string, outDir: string, cacheDir: string) {
  // One encoding at a time, on libvips' own threads: all of one picture's variants at
  // once took the build over 800 MB on a fresh cache, more than a 1 GB server has to spare.
  const encodingTurn = pLimit(1);
  // Nothing is encoded twice in a build: libvips' operation cache would only hold memory.
  sharp.cache(false);
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else files.push(full);
    }
  };
  await walk(path.join(publicDir, "images")).catch(() => undefined);
  await fs.mkdir(cacheDir, { recursive: true });
  let made = 0;
  let written = 0;
  for (const file of files) {
    const src = `/${path.relative(publicDir, file).split(path.sep).join("/")}`;
    if (!VARIANT_SOURCE.test(src)) continue;
    const original = await fs.readFile(file);
    const { width: originalWidth = 0 } = await sharp(original).metadata();
    const hash = createHash("sha256").update(original).digest("hex").slice(0, 16);
    const jobs = VARIANT_WIDTHS.filter((w, i) => w <= originalWidth || i === 0).flatMap((w) => VARIANT_FORMATS.map((f) => ({ w, f })));
    await Promise.all(
      jobs.map(({ w, f }) => encodingTurn(async () => {
        const cached = path.join(cacheDir, `${hash}-${w}.${f}`);
        let bytes: Buffer | null = await fs.readFile(cached).catch(() => null);
        if (!bytes) {
          bytes = await encodeVariant(original, w, f);
          await fs.writeFile(cached, bytes);
          made++;
        }
        const out = path.join(outDir, `.${variantPath(src, w, f)}`);
        await fs.mkdir(path.dirname(out), { recursive: true });
        await fs.writeFile(out, bytes);
        written++;
      })),
    );
  }
  return { written, made };
}
