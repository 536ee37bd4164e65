import zlib from "node:zlib";
import sharp from "sharp";

/**
 * Uploads built to hold a server's event loop: JSON nested millions of levels deep, as a badge
 * PNG's `openbadges` record and as a JSON body. Built here byte by byte (not with the site's own
 * baking code) so a test sends exactly what an attacker would.
 */

/** `{"id":[[[[…]]]]}` of about `bytes` characters. */
export function nestedJson(bytes: number): string {
  const depth = Math.floor((bytes - 8) / 2);
  return `{"id":${"[".repeat(depth)}${"]".repeat(depth)}}`;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid 8x8 PNG whose `openbadges` iTXt chunk (uncompressed, as baking wants) holds `text`. */
export async function pngWithBadgeText(text: string): Promise<Buffer> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#123b5d" } }).png().toBuffer();
  const ihdrEnd = 8 + 12 + png.readUInt32BE(8);
  const itxt = Buffer.concat([Buffer.from("openbadges\0", "latin1"), Buffer.from([0, 0, 0, 0]), Buffer.from(text, "utf8")]);
  return Buffer.concat([png.subarray(0, ihdrEnd), pngChunk("iTXt", itxt), png.subarray(ihdrEnd)]);
}

/** A multipart body with one file field, as the verify page's upload form sends it. */
export function multipartFile(field: string, filename: string, type: string, bytes: Buffer) {
  const boundary = `----poisoned${Date.now().toString(36)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
