import crypto from "node:crypto";
import sharp from "sharp";

/**
 * A photo as a phone camera saves it: a JPEG at quality 95 whose pixels carry sensor-like
 * noise (so it is as large as a real one: a 4000x3000 is about 10 MB), stored on its side with
 * EXIF orientation 6 (turn 90° clockwise to show), as phones held upright save them. Shown
 * upright it is `height` wide and `width` tall: red above, blue below, so a test can tell
 * whether the orientation was applied.
 */
export async function cameraPhoto({ width = 4000, height = 3000, noise = 130, quality = 95 } = {}) {
  const raw = Buffer.alloc(width * height * 3);
  const random = crypto.randomBytes(raw.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      // Stored on its side: the left half shows on top once turned.
      const base = x < width / 2 ? [200, 60, 50] : [40, 70, 190];
      for (let c = 0; c < 3; c++) raw[i + c] = Math.max(0, Math.min(255, base[c]! + (random[i + c]! / 255 - 0.5) * noise));
    }
  }
  const buffer = await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality }).withMetadata({ orientation: 6 }).toBuffer();
  return { name: "IMG_20261114_181502.jpg", mimeType: "image/jpeg", buffer };
}

/** The mean colour of a band of rows of an image (top or bottom fifth), as [r, g, b]. */
export async function bandColour(image: Buffer, band: "top" | "bottom") {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rows = Math.floor(info.height / 5);
  const start = band === "top" ? 0 : info.height - rows;
  const sum = [0, 0, 0];
  for (let y = start; y < start + rows; y++) {
    for (let x = 0; x < info.width; x++) for (let c = 0; c < 3; c++) sum[c]! += data[(y * info.width + x) * info.channels + c]!;
  }
  return sum.map((s) => Math.round(s / (rows * info.width)));
}
