import crypto from "node:crypto";
import sharp from "sharp";
import { DomainError } from "~/lib/core/domain-error";
import {
  PORTRAIT_FAILED_MESSAGE,
  PORTRAIT_MAX_BYTES,
  PORTRAIT_MAX_PIXELS,
  PORTRAIT_PIXELS_MESSAGE,
  PORTRAIT_SIZE_MESSAGE,
  PORTRAIT_TYPE_MESSAGE,
} from "../event-badges/portrait";
import { decodeSlot } from "../event-badges/portrait.server";

/** Side of a stored badge picture: the size /open/badges/{id}.png is served at. */
export const BADGE_IMAGE_SIZE = 1080;
export const BADGE_IMAGE_MAX_BYTES = PORTRAIT_MAX_BYTES;

/** Uploaded badge pictures are stored files under team-badges/uploads/, named by the id and their hash. */
export const badgeUploadKey = (name: string) => `team-badges/uploads/${name}`;
export const badgeUploadName = (id: string, png: Buffer) => `${id}-${crypto.createHash("sha256").update(png).digest("hex").slice(0, 16)}.png`;

/**
 * A team badge picture staff upload (or the import reads from the old site's open/badges/), checked
 * as a portrait is: by its content (PNG, JPEG or WebP only; never SVG), at most 6 MB and 24
 * megapixels, decoded two at a time; then re-encoded as a 1080x1080 PNG, the whole picture kept
 * (fitted, on a transparent square), rotated by its EXIF data, metadata stripped. The original
 * bytes are never kept.
 */
export async function processBadgeImage(bytes: Uint8Array): Promise<Buffer> {
  if (bytes.byteLength === 0) throw new DomainError("invalid", PORTRAIT_TYPE_MESSAGE, "image");
  if (bytes.byteLength > BADGE_IMAGE_MAX_BYTES) throw new DomainError("too_large", PORTRAIT_SIZE_MESSAGE, "image");
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    // Only the header is read: no pixel limit here (sharp's default refuses a huge picture as if
    // it were no picture at all); the size is judged below, with its own sentence.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new DomainError("invalid", PORTRAIT_TYPE_MESSAGE, "image");
  }
  if (meta.format !== "png" && meta.format !== "jpeg" && meta.format !== "webp") throw new DomainError("invalid", PORTRAIT_TYPE_MESSAGE, "image");
  if (!meta.width || !meta.height) throw new DomainError("invalid", PORTRAIT_TYPE_MESSAGE, "image");
  if (meta.width * meta.height > PORTRAIT_MAX_PIXELS) throw new DomainError("too_large", PORTRAIT_PIXELS_MESSAGE, "image");
  return decodeSlot(async () => {
    try {
      return await sharp(bytes, { limitInputPixels: PORTRAIT_MAX_PIXELS })
        .rotate()
        .resize(BADGE_IMAGE_SIZE, BADGE_IMAGE_SIZE, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png({ compressionLevel: 8 })
        .toBuffer();
    } catch {
      throw new DomainError("invalid", PORTRAIT_FAILED_MESSAGE, "image");
    }
  });
}
