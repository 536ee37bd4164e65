import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { PORTRAIT_PIXELS_MESSAGE } from "./portrait";
import { checkKitPng, decodeImageDataUrl, decodeQueue, IMAGE_DECODES_AT_ONCE, PORTRAIT_SIZE, processPortrait } from "./portrait.server";
import { domainRefusal as httpError } from "../../../tests/support/domain";
import { cameraPhoto } from "../../../tests/support/camera-photo";

const TYPE_MESSAGE = "Please choose an image file (PNG, JPG, or WEBP).";
const SIZE_MESSAGE = "Please choose an image smaller than 6MB.";
const SIX_MB = 6 * 1024 * 1024;

const solid = (width: number, height: number, background = "#1f6f8b") =>
  sharp({ create: { width, height, channels: 3, background } });

async function expectSquareJpeg(out: Buffer) {
  const meta = await sharp(out).metadata();
  expect(meta.format).toBe("jpeg");
  expect([meta.width, meta.height]).toEqual([PORTRAIT_SIZE, PORTRAIT_SIZE]);
  expect(PORTRAIT_SIZE).toBe(720);
  // Metadata is stripped: no EXIF (and so no orientation) survives.
  expect(meta.exif).toBeUndefined();
  expect(meta.orientation).toBeUndefined();
  return meta;
}

describe("processPortrait", () => {
  it.each([
    ["PNG", () => solid(900, 600).png().toBuffer()],
    ["JPEG", () => solid(600, 900).jpeg().toBuffer()],
    ["WebP", () => solid(500, 500).webp().toBuffer()],
    ["a tiny PNG", () => solid(40, 40).png().toBuffer()],
  ])("accepts %s and re-encodes it as a 720x720 JPEG, never the original bytes", async (_, make) => {
    const original = await make();
    const out = await processPortrait(new Uint8Array(original));
    await expectSquareJpeg(out);
    expect(out.equals(original)).toBe(false);
  });

  it("keeps a phone photo's portrait small: a 10 MB 4000x3000 camera JPEG gives well under 150 kB", async () => {
    const photo = await cameraPhoto();
    expect(photo.buffer.length).toBeGreaterThan(8_000_000);
    // As the order form hands it over: a file on disk (the camera's 10 MB is over the in-memory limit).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portrait-"));
    const file = path.join(dir, photo.name);
    fs.writeFileSync(file, photo.buffer);
    const out = await processPortrait({ path: file, bytes: photo.buffer.length }).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
    await expectSquareJpeg(out);
    // A PNG of the same 720x720 was 1.2 MB: a portrait is kept for every order, and in every backup.
    expect(out.length).toBeLessThan(150_000);
  }, 60_000);

  it("paints a transparent PNG's see-through parts white, as the kit draws them", async () => {
    const clear = await sharp({ create: { width: 400, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const out = await processPortrait(new Uint8Array(clear));
    const { data } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data.subarray(0, 3000))).toBeGreaterThan(245);
  });

  it("re-encodes even a 720x720 PNG that carries metadata (the bytes differ, the EXIF is gone)", async () => {
    const original = await solid(720, 720).png().withMetadata({ orientation: 1 }).toBuffer();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const out = await processPortrait(new Uint8Array(original));
    await expectSquareJpeg(out);
    expect(out.equals(original)).toBe(false);
  });

  it("turns a JPEG by its EXIF orientation (6: a quarter turn clockwise) before cropping", async () => {
    // 400x200 with horizontal stripes (colour depends on y only). Turned a quarter, the
    // stripes run vertically: colour then depends on x only, whatever square is kept.
    const width = 400;
    const height = 200;
    const raw = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      const dark = Math.floor(y / 25) % 2 === 0;
      for (let x = 0; x < width; x++) raw.fill(dark ? 20 : 235, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
    const jpeg = await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);

    const out = await processPortrait(new Uint8Array(jpeg));
    await expectSquareJpeg(out);
    const { data, info } = await sharp(out).greyscale().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    let alongRows = 0; // change from one column to the next, walking a row
    let alongColumns = 0; // change from one row to the next, walking a column
    for (let i = 5; i < 715; i += 7) {
      for (let j = 5; j < 714; j += 3) {
        alongRows += Math.abs(at(j + 1, i) - at(j, i));
        alongColumns += Math.abs(at(i, j + 1) - at(i, j));
      }
    }
    expect(alongRows).toBeGreaterThan(10 * alongColumns);
  });

  it.each([
    ["an SVG", () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>')],
    ["a GIF", () => solid(50, 50).gif().toBuffer()],
    ["a TIFF", () => solid(50, 50).tiff().toBuffer()],
    ["plain text", () => Buffer.from("This is not an image, honestly.")],
    ["HTML pretending to be a PNG", () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from("<script>alert(1)</script>")])],
    ["an empty file", () => Buffer.alloc(0)],
  ])("rejects %s with 400 and the type message", async (_, make) => {
    const bytes = new Uint8Array(await make());
    expect(await httpError(() => processPortrait(bytes))).toEqual({ status: 400, message: TYPE_MESSAGE });
  });

  it("rejects more than 6 MB with 413 and the size message, whatever the content", async () => {
    const png = await solid(50, 50).png().toBuffer();
    const tooBig = Buffer.concat([png, Buffer.alloc(SIX_MB + 1 - png.length)]);
    expect(await httpError(() => processPortrait(new Uint8Array(tooBig)))).toEqual({ status: 413, message: SIZE_MESSAGE });
    expect(await httpError(() => processPortrait(new Uint8Array(SIX_MB + 1)))).toEqual({ status: 413, message: SIZE_MESSAGE });
  });

  it("refuses a picture of more than 24 megapixels before decoding it, however few bytes it is", async () => {
    // 7000x7000 of one colour: about 200 KB as PNG, about 200 MB once decoded.
    const bomb = await solid(7000, 7000).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const started = Date.now();
    expect(await httpError(() => processPortrait(new Uint8Array(bomb)))).toEqual({ status: 413, message: PORTRAIT_PIXELS_MESSAGE });
    // Only the header was read: no 49-megapixel decode happened.
    expect(Date.now() - started).toBeLessThan(1000);
    expect(decodeQueue()).toEqual({ active: 0, pending: 0 });
  });

  it("accepts a 24-megapixel phone photo (6000x4000)", async () => {
    const photo = await solid(6000, 4000, "#884422").jpeg({ quality: 60 }).toBuffer();
    await expectSquareJpeg(await processPortrait(new Uint8Array(photo)));
  });

  it("decodes at most two pictures at once; the rest wait their turn and all finish", async () => {
    const pictures = await Promise.all(
      ["#102030", "#203040", "#304050", "#405060", "#506070", "#607080"].map((c) => solid(1600, 1200, c).png().toBuffer()),
    );
    let most = 0;
    let waiting = 0;
    const sampler = setInterval(() => {
      const q = decodeQueue();
      most = Math.max(most, q.active);
      waiting = Math.max(waiting, q.pending);
    }, 1);
    try {
      const outs = await Promise.all(pictures.map((p) => processPortrait(new Uint8Array(p))));
      for (const out of outs) await expectSquareJpeg(out);
    } finally {
      clearInterval(sampler);
    }
    expect(IMAGE_DECODES_AT_ONCE).toBe(2);
    expect(most).toBe(2);
    expect(waiting).toBeGreaterThan(0);
  });

  it("accepts exactly 6 MB", async () => {
    const png = await solid(50, 50).png().toBuffer();
    const sixMb = Buffer.concat([png, Buffer.alloc(SIX_MB - png.length)]);
    await expectSquareJpeg(await processPortrait(new Uint8Array(sixMb)));
  });
});

describe("decodeImageDataUrl", () => {
  it("decodes PNG, JPEG and WebP data URLs, whitespace in the base64 included", async () => {
    const png = await solid(10, 10).png().toBuffer();
    const b64 = png.toString("base64");
    expect(decodeImageDataUrl(`data:image/png;base64,${b64}`, SIX_MB, SIZE_MESSAGE).equals(png)).toBe(true);
    const wrapped = b64.replace(/(.{20})/g, "$1\n");
    expect(decodeImageDataUrl(`data:image/png;base64,${wrapped}`, SIX_MB, SIZE_MESSAGE).equals(png)).toBe(true);
    for (const type of ["jpeg", "jpg", "webp"]) {
      expect(decodeImageDataUrl(`data:image/${type};base64,${b64}`, SIX_MB, SIZE_MESSAGE).equals(png)).toBe(true);
    }
  });

  it.each([
    ["an SVG data URL", "data:image/svg+xml;base64,PHN2Zy8+"],
    ["a text data URL", "data:text/plain;base64,aGVsbG8="],
    ["a data URL without base64", "data:image/png,rawbytes"],
    ["a link", "https://example.org/me.png"],
    ["nothing", ""],
  ])("refuses %s with 400 and the type message", async (_, value) => {
    expect(await httpError(async () => decodeImageDataUrl(value, SIX_MB, SIZE_MESSAGE))).toEqual({
      status: 400,
      message: TYPE_MESSAGE,
    });
  });

  it("refuses more than maxBytes with 413 and the caller's message", async () => {
    const b64 = Buffer.alloc(2000).toString("base64");
    expect(await httpError(async () => decodeImageDataUrl(`data:image/png;base64,${b64}`, 1000, "Too large."))).toEqual({
      status: 413,
      message: "Too large.",
    });
    expect(decodeImageDataUrl(`data:image/png;base64,${b64}`, 2000, "Too large.")).toHaveLength(2000);
  });
});

describe("checkKitPng", () => {
  it("accepts a 1080x1080 PNG and gives back a 1080x1080 PNG", async () => {
    const out = await checkKitPng(await solid(1080, 1080).png().toBuffer(), "badgeDataUrl");
    const meta = await sharp(out).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1080, 1080]);
  });

  it.each([
    ["a 100x100 PNG", () => solid(100, 100).png().toBuffer()],
    ["a 1080x1079 PNG", () => solid(1080, 1079).png().toBuffer()],
    ["a 1080x1080 JPEG", () => solid(1080, 1080).jpeg().toBuffer()],
    ["a 1080x1080 WebP", () => solid(1080, 1080).webp().toBuffer()],
    ["text", async () => Buffer.from("not a png")],
    ["nothing", async () => Buffer.alloc(0)],
  ])("refuses %s with 400 naming the field", async (_, make) => {
    const bytes = await make();
    expect(await httpError(() => checkKitPng(bytes, "posterDataUrl"))).toEqual({
      status: 400,
      message: "posterDataUrl must be a 1080x1080 PNG image.",
    });
  });
});
