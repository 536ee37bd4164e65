import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { loader } from "~/routes/site/image-variant";
import { buildImageVariants, parseVariant } from "./variants.server";

const get = (url: string, headers: Record<string, string> = {}) =>
  loader({ request: new Request(`http://localhost${url}`, { headers }), url: new URL(`http://localhost${url}`), params: paramsOf(url), context: {} } as never) as Promise<Response>;
function paramsOf(url: string) {
  const [, , width, ...rest] = url.split("/");
  return { width, "*": rest.join("/") };
}

describe("GET /img/:width/:format/images/…", () => {
  it("answers a site picture resized and re-encoded, with an ETag that gives a 304", async () => {
    const res = await get("/img/240/images/merch/hoodie.webp.avif");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/avif");
    const bytes = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.width).toBe(240);
    expect(bytes.length).toBeLessThan(fs.statSync("public/images/merch/hoodie.webp").size);
    const again = await get("/img/240/images/merch/hoodie.webp.avif", { "if-none-match": res.headers.get("etag")! });
    expect(again.status).toBe(304);
  });

  it("never enlarges: a width past the original gives the original's width", async () => {
    const res = await get("/img/800/images/merch/hoodie.webp.webp");
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(480);
  });

  it("is a 404 for widths and formats it does not make, paths outside /images and missing files", async () => {
    for (const url of [
      "/img/241/images/merch/hoodie.webp.avif",
      "/img/240/images/merch/hoodie.webp.gif",
      "/img/240/images/..%2F..%2Fpackage.json.avif",
      "/img/240/images/merch/nothing.webp.avif",
      "/img/240/brand/og-default.png.avif",
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
    expect(parseVariant("240", "images/../x.webp.avif")).toBeNull();
    expect(parseVariant("240", "images/merch/hoodie.webp.avif")).toEqual({ width: 240, format: "avif", src: "/images/merch/hoodie.webp" });
  });
});

describe("buildImageVariants", () => {
  it("writes every width up to the original in both formats, and reuses its encodings on a second build", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "variants-"));
    const pub = path.join(tmp, "public");
    fs.mkdirSync(path.join(pub, "images", "x"), { recursive: true });
    await sharp({ create: { width: 300, height: 200, channels: 3, background: "#123b5d" } }).webp().toFile(path.join(pub, "images", "x", "p.webp"));
    fs.writeFileSync(path.join(pub, "images", "x", "logo.svg"), "<svg/>");
    const first = await buildImageVariants(pub, path.join(tmp, "out"), path.join(tmp, "cache"));
    // 160 and 240 wide (300 is not one of the widths, and nothing is enlarged), each as AVIF and WebP; the SVG is left alone.
    expect(first).toEqual({ written: 4, made: 4 });
    const files = fs.readdirSync(path.join(tmp, "out", "img"), { recursive: true }).map(String).filter((f) => f.endsWith(".webp")).sort();
    expect(files).not.toContain(path.join("160", "images", "x", "p.webp"));
    const all = fs.readdirSync(path.join(tmp, "out", "img"), { recursive: true }).map(String);
    expect(all).toContain(path.join("160", "images", "x", "p.webp.avif"));
    expect(all).toContain(path.join("240", "images", "x", "p.webp.webp"));
    const second = await buildImageVariants(pub, path.join(tmp, "out2"), path.join(tmp, "cache"));
    expect(second).toEqual({ written: 4, made: 0 });
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
