import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/lib/db/db.server";
import { loader } from "~/routes/event/preview-image";
import { PORTRAIT_URL_MESSAGE, resolveSiteImage, setPublicDirForTests } from "./site-image.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "previews-public-"));
const outside = fs.mkdtempSync(path.join(os.tmpdir(), "previews-outside-"));

beforeAll(async () => {
  fs.mkdirSync(path.join(dir, "brand"));
  // Not square, to prove the portrait is normalised.
  await sharp({ create: { width: 300, height: 200, channels: 3, background: "#c0392b" } })
    .jpeg()
    .toFile(path.join(dir, "brand", "face.jpg"));
  fs.writeFileSync(path.join(dir, "brand", "notes.txt"), "hello");
  fs.writeFileSync(path.join(dir, "brand", "fake.png"), "not an image");
  await sharp({ create: { width: 10, height: 10, channels: 3, background: "#000" } }).png().toFile(path.join(outside, "secret.png"));
  fs.symlinkSync(path.join(outside, "secret.png"), path.join(dir, "brand", "link.png"));
  setPublicDirForTests(dir);
});

afterAll(() => {
  setPublicDirForTests(undefined);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

async function get(query: Record<string, string>) {
  const url = `http://site.test/event/previews/image.png?${new URLSearchParams(query)}`;
  const args = { request: new Request(url), url: new URL(url), params: {}, context: { clientAddress: "198.51.100.7", db: await getDb() } };
  return (await loader(args as never)) as Response;
}

const ok = { kind: "badge", tier: "t3", name: "Amani Wanjiku", share: "https://site.test/event?utm_source=share" };

describe("GET /event/previews/image.png", () => {
  it("answers a cacheable 1080x1080 PNG", async () => {
    for (const kind of ["badge", "poster"]) {
      const res = await get({ ...ok, kind });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      const m = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([m.format, m.width, m.height]).toEqual(["png", 1080, 1080]);
    }
  });

  it("defaults the share URL to the event page for the tier", async () => {
    const { share: _share, ...rest } = ok;
    expect((await get({ ...rest, kind: "poster" })).status).toBe(200);
  });

  it("refuses a bad query with a 400 and a plain message", async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ ...ok, kind: "sticker" }, /Kind must be poster or badge/],
      [{ ...ok, tier: "t9" }, /Tier must be one of/],
      [{ ...ok, name: "x".repeat(81) }, /80 characters/],
      [{ ...ok, share: "javascript:alert(1)" }, /Share URL must be an http\(s\) address/],
      [{ ...ok, share: `https://site.test/${"a".repeat(500)}` }, /500 characters/],
      [{ ...ok, share: "http//missing-colon" }, /Share URL/],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await res.text()).toMatch(message);
    }
  });

  it("uses a portrait from the site's own files, normalised to a square", async () => {
    const withPortrait = await get({ ...ok, portrait: "/brand/face.jpg" });
    expect(withPortrait.status).toBe(200);
    const without = await get(ok);
    const a = Buffer.from(await withPortrait.arrayBuffer());
    const b = Buffer.from(await without.arrayBuffer());
    expect(a.equals(b)).toBe(false);
  });

  it("never fetches or reads a portrait from anywhere else", async () => {
    const refused = [
      "https://example.com/face.png",
      "http://169.254.169.254/latest/meta-data/x.png",
      "//example.com/face.png",
      "/../../etc/passwd.png",
      "/brand/%2e%2e/%2e%2e/secret.png",
      "/brand/..%2f..%2fsecret.png",
      "/brand\\..\\secret.png",
      "/brand/notes.txt",
      "/brand/missing.png",
      "/brand/fake.png",
      "/brand/link.png",
      "file:///etc/passwd",
      "data:image/png;base64,AAAA",
    ];
    for (const portrait of refused) {
      const res = await get({ ...ok, portrait });
      expect(res.status, portrait).toBe(400);
      expect(await res.text()).toBe(PORTRAIT_URL_MESSAGE);
    }
    await expect(resolveSiteImage("/brand/face.jpg")).resolves.toBe(fs.realpathSync(path.join(dir, "brand", "face.jpg")));
  });
});
