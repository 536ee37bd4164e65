import jsQR from "jsqr";
import sharp from "sharp";
import { decodeSlot } from "./portrait.server";

/** Longest side a photo is scaled to before looking for a code: a ticket fills much of it. */
const SCAN_SIDE = 1200;

/**
 * The text of the QR code in a photo (a door phone without JavaScript takes the picture with
 * its camera and sends it), or null when none can be read. Throws for what is not a picture.
 */
export async function readQrFromPhoto(bytes: Buffer): Promise<string | null> {
  return decodeSlot(async () => {
    const { data, info } = await sharp(bytes, { limitInputPixels: 50_000_000 })
      .rotate()
      .resize(SCAN_SIDE, SCAN_SIDE, { fit: "inside", withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const found = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height, { inversionAttempts: "attemptBoth" });
    return found?.data ?? null;
  });
}
