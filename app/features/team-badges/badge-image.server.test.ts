import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { PORTRAIT_PIXELS_MESSAGE } from "../event-badges/portrait";
import { processPortrait } from "../event-badges/portrait.server";
import { processBadgeImage } from "./badge-image.server";

/** CRC-32 as PNG chunks use it. */
function crc32(bytes: Buffer) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A small PNG whose header says `width` x `height` (what a decompression bomb's header says). */
async function pngClaiming(width: number, height: number) {
  const png = Buffer.from(await sharp({ create: { width: 1, height: 1, channels: 3, background: "#123456" } }).png().toBuffer());
  // IHDR: length (4) 'IHDR' (4) width (4) height (4) … CRC over type and data (17 bytes).
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return new Uint8Array(png);
}

describe("a picture whose header says 20000x20000", () => {
  it("a team badge picture gets the size sentence, not 'choose an image file'", async () => {
    await expect(processBadgeImage(await pngClaiming(20_000, 20_000))).rejects.toMatchObject({ message: PORTRAIT_PIXELS_MESSAGE });
  });

  it("a portrait gets the size sentence too", async () => {
    await expect(processPortrait(await pngClaiming(20_000, 20_000))).rejects.toMatchObject({ message: PORTRAIT_PIXELS_MESSAGE });
  });
});
