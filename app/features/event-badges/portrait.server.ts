import pLimit from "p-limit";
import sharp from "sharp";
import { getBlob } from "~/lib/db/blob-store.server";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { keptPromises } from "~/lib/server/kept-promises.server";
import { ORDER_NOT_FOUND } from "./badge-order";
import {
  PORTRAIT_FAILED_MESSAGE,
  PORTRAIT_MAX_BYTES,
  PORTRAIT_MAX_PIXELS,
  PORTRAIT_PIXELS_MESSAGE,
  PORTRAIT_SIZE_MESSAGE,
  PORTRAIT_TYPE_MESSAGE,
  PORTRAIT_UPLOAD_MAX_BYTES,
  portraitTooLargeMessage,
} from "./portrait";

/**
 * Image decodes at once (portraits and kit uploads): each may hold ~100 MB while it runs, so
 * a burst of uploads waits in line instead of growing the process without bound.
 */
export const IMAGE_DECODES_AT_ONCE = 2;
export const decodeSlot = pLimit(IMAGE_DECODES_AT_ONCE);
/** For tests: decodes running and waiting now. */
export const decodeQueue = () => ({ active: decodeSlot.activeCount, pending: decodeSlot.pendingCount });

/** Side of the stored square portrait, in pixels: enough for the 1080px kit's round frame. */
export const PORTRAIT_SIZE = 720;

/**
 * How an order's pictures are stored: the portrait and the poster as JPEG (a photo: a PNG of one
 * is ten times larger and no better for a badge), the badge as PNG, since the Open Badges
 * assertion is baked into it and baking needs PNG. Orders stored before keep their
 * `portrait.png` and `poster.png`: the order row names its files, and readers follow the row.
 */
export const PORTRAIT_FILE = "portrait.jpg";
export const BADGE_FILE = "badge.png";
export const POSTER_FILE = "poster.jpg";
export const PORTRAIT_JPEG_QUALITY = 86;
export const POSTER_JPEG_QUALITY = 88;
const ORDER_FILES = new Set<string>(["portrait.jpg", "portrait.png", "badge.png", "poster.jpg", "poster.png"]);

/** The content type of a stored order picture, by its name. */
export const orderFileType = (file: string) => (file.endsWith(".jpg") ? "image/jpeg" : "image/png");
/** The content type of stored picture bytes: a JPEG starts FF D8 FF; anything else stored is PNG. */
export const storedImageType = (bytes: Uint8Array) => (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff ? "image/jpeg" : "image/png");
/** 'jpg' or 'png': the extension a download of this stored picture gets. */
export const orderFileExt = (file: string) => (file.endsWith(".jpg") ? "jpg" : "png");

/** A portrait the order form sent without JavaScript, kept in a temporary file while it is handled. */
export type StoredPortrait = { path: string; bytes: number };

/**
 * Checks an upload by its content (PNG, JPEG or WebP only; never SVG), then re-encodes it
 * as a square JPEG (PORTRAIT_FILE): rotated by its EXIF data, cropped to the most interesting square (an
 * already cropped portrait stays as it is), metadata stripped. The original bytes are never kept.
 * In memory (the JSON API's data URL) at most 6 MB; from a file (the order form) at most 25 MB.
 * Either way at most 24 megapixels are decoded, two pictures at a time.
 */
export async function processPortrait(source: Uint8Array | StoredPortrait): Promise<Buffer> {
  const onDisk = !(source instanceof Uint8Array);
  const size = onDisk ? source.bytes : source.byteLength;
  if (size === 0) throw new DomainError("invalid", PORTRAIT_TYPE_MESSAGE);
  if (onDisk ? size > PORTRAIT_UPLOAD_MAX_BYTES : size > PORTRAIT_MAX_BYTES) {
    throw new DomainError("too_large", onDisk ? portraitTooLargeMessage(size) : PORTRAIT_SIZE_MESSAGE);
  }
  // sharp reads a file as it decodes (a JPEG at the scale the result needs): never whole in memory.
  const input = onDisk ? source.path : source;
  // The header alone says the format and size: a picture refused here is never decoded.
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    // No pixel limit for the header: the size is judged below, with its own sentence.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new DomainError("invalid", PORTRAIT_TYPE_MESSAGE);
  }
  const format = meta.format;
  if (format !== "png" && format !== "jpeg" && format !== "webp") throw new DomainError("invalid", PORTRAIT_TYPE_MESSAGE);
  if (!meta.width || !meta.height) throw new DomainError("invalid", PORTRAIT_TYPE_MESSAGE);
  if (meta.width * meta.height > PORTRAIT_MAX_PIXELS) throw new DomainError("too_large", PORTRAIT_PIXELS_MESSAGE);
  return decodeSlot(async () => {
    try {
      return await sharp(input, { limitInputPixels: PORTRAIT_MAX_PIXELS })
        .rotate()
        .resize(PORTRAIT_SIZE, PORTRAIT_SIZE, { fit: "cover", position: sharp.strategy.attention })
        // A transparent PNG's see-through parts turn white, as the kit draws them.
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: PORTRAIT_JPEG_QUALITY, mozjpeg: true })
        .toBuffer();
    } catch {
      throw new DomainError("invalid", PORTRAIT_FAILED_MESSAGE);
    }
  });
}

/** An order's images are stored files under badge-orders/<id>/; ids are checked before use. */
export function orderFolder(id: string) {
  if (!/^BO-[0-9A-Z]{6}$/.test(id)) throw new DomainError("invalid", ORDER_NOT_FOUND);
  return `badge-orders/${id}`;
}
/** Where a stored order picture is kept; `file` is the name the order row holds, one of a fixed few. */
export function orderFileKey(id: string, file: string) {
  if (!ORDER_FILES.has(file)) throw new DomainError("not_found", "No such image.");
  return `${orderFolder(id)}/${file}`;
}

/** A poster as stored: JPEG (a rendered or staff-sent PNG is re-encoded; white where it was see-through). */
export function posterForStorage(png: Buffer): Promise<Buffer> {
  return decodeSlot(() => sharp(png, { limitInputPixels: 4_000_000 }).flatten({ background: "#ffffff" }).jpeg({ quality: POSTER_JPEG_QUALITY, mozjpeg: true }).toBuffer());
}

const smallPortraits = keptPromises<Buffer | null>(300);

/**
 * An order's stored portrait (`file`, as its row names it) scaled down to `size` px WebP (a few
 * kB), made once per order and size and kept in memory (a portrait never changes after the
 * order). Null when there is none. Callers decide who may see it.
 */
export function smallPortrait(db: Db, id: string, file: string, size: number): Promise<Buffer | null> {
  return smallPortraits(`${id}:${size}`, async () => {
    const original = await getBlob(db, orderFileKey(id, file));
    return original ? sharp(original).resize(size, size, { fit: "cover" }).webp({ quality: 75 }).toBuffer() : null;
  }).catch(() => null);
}

/** Decodes `data:image/...;base64,...` (the JSON API's portraitDataUrl and kit images). */
export function decodeImageDataUrl(value: string, maxBytes: number, tooLarge: string): Buffer {
  const m = /^data:image\/(png|jpeg|jpg|webp);base64,([A-Za-z0-9+/=\s]+)$/.exec(value);
  if (!m) throw new DomainError("invalid", PORTRAIT_TYPE_MESSAGE);
  const b64 = m[2]!.replace(/\s/g, "");
  if ((b64.length * 3) / 4 > maxBytes + 4) throw new DomainError("too_large", tooLarge);
  return Buffer.from(b64, "base64");
}

/** A kit image sent by an admin client: a real PNG, 1080x1080, re-encoded. */
export async function checkKitPng(bytes: Buffer, label: string): Promise<Buffer> {
  return decodeSlot(async () => {
    try {
      const img = sharp(bytes, { limitInputPixels: 4_000_000 });
      const meta = await img.metadata();
      if (meta.format !== "png" || meta.width !== 1080 || meta.height !== 1080) throw new Error("shape");
      return await img.png({ compressionLevel: 8 }).toBuffer();
    } catch {
      throw new DomainError("invalid", `${label} must be a 1080x1080 PNG image.`);
    }
  });
}
