import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { plainKitPng } from "../../../tests/support/kit-png";
import { bakePng, NotAPngError, readBakedPng } from "../badge-art/bake.server";
import { EmptyUploadError, readBakedUpload, UploadTooLargeError } from "./baked-upload.server";

const LIMITS = { maxBytes: 6 * 1024 * 1024, maxTextBytes: 64 * 1024, tooLarge: "too large" };

async function* inPieces(bytes: Buffer, sizes: number[], read?: { bytes: number }) {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const piece = bytes.subarray(at, at + (sizes[i % sizes.length] ?? 1));
    at += piece.length;
    if (read) read.bytes += piece.length;
    yield piece;
  }
}

/** What readBakedPng says of a whole file, and what readBakedUpload says of it in pieces. */
async function both(png: Buffer, sizes: number[]) {
  const outcome = async (work: () => Promise<string | null> | string | null) => {
    try {
      return { text: await work() };
    } catch (e) {
      if (e instanceof NotAPngError) return { problem: e.message };
      throw e;
    }
  };
  return {
    whole: await outcome(() => readBakedPng(png, LIMITS_WHOLE)),
    pieces: await outcome(() => readBakedUpload(inPieces(png, sizes), LIMITS)),
  };
}
const LIMITS_WHOLE = { maxTextBytes: LIMITS.maxTextBytes, tooLarge: LIMITS.tooLarge };

function withCrcBroken(png: Buffer) {
  const copy = Buffer.from(png);
  copy.writeUInt8(copy.readUInt8(copy.length - 20) ^ 0xff, copy.length - 20);
  return copy;
}

function chunk(type: string, data: Buffer) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

describe("a baked badge upload, read as it arrives", () => {
  it("says what readBakedPng says of the whole file, however the upload is cut", async () => {
    const plain = await plainKitPng();
    const baked = bakePng(plain, "https://site.test/badges/assertions/b5692.json");
    const asJson = bakePng(plain, JSON.stringify({ id: "https://site.test/badges/assertions/b5692.json", type: "Assertion" }));
    const ihdrEnd = 8 + 12 + plain.readUInt32BE(8);
    const compressed = Buffer.concat([
      plain.subarray(0, ihdrEnd),
      chunk("iTXt", Buffer.concat([Buffer.from("openbadges\0", "latin1"), Buffer.from([1, 0, 0, 0]), Buffer.from("x")])),
      plain.subarray(ihdrEnd),
    ]);
    const notText = Buffer.concat([
      plain.subarray(0, ihdrEnd),
      chunk("iTXt", Buffer.concat([Buffer.from("openbadges\0", "latin1"), Buffer.from([0, 0, 0, 0]), Buffer.from([0xff, 0xfe])])),
      plain.subarray(ihdrEnd),
    ]);
    const files = [
      baked,
      asJson,
      plain,
      compressed,
      notText,
      withCrcBroken(baked),
      baked.subarray(0, baked.length - 30),
      baked.subarray(0, 5),
      Buffer.from("%PDF-1.7 not a picture"),
      Buffer.concat([baked, Buffer.from("trailing bytes after IEND")]),
      baked.subarray(0, baked.length - 12),
    ];
    for (const [i, png] of files.entries()) {
      for (const sizes of [[1], [3, 5, 7], [64], [65_536], [png.length]]) {
        const { whole, pieces } = await both(png, sizes);
        expect(pieces, `file ${i} in pieces of ${sizes}`).toEqual(whole);
      }
    }
  });

  it("refuses a record too long to be ours as soon as its chunk arrives, reading no further", async () => {
    const plain = await plainKitPng();
    const poisoned = bakePng(plain, `{"id":${"[".repeat(3_000_000)}${"]".repeat(3_000_000)}}`);
    const read = { bytes: 0 };
    await expect(readBakedUpload(inPieces(poisoned, [65_536], read), LIMITS)).rejects.toThrow("too large");
    expect(read.bytes).toBeLessThanOrEqual(2 * 65_536);
    expect(() => readBakedPng(poisoned, LIMITS_WHOLE)).toThrow("too large");
  });

  it("tells an empty upload and one over the size limit apart", async () => {
    await expect(readBakedUpload(inPieces(Buffer.alloc(0), [1]), LIMITS)).rejects.toBeInstanceOf(EmptyUploadError);
    const plain = await plainKitPng();
    await expect(readBakedUpload(inPieces(plain, [1000]), { ...LIMITS, maxBytes: 2000 })).rejects.toBeInstanceOf(UploadTooLargeError);
  });
});
