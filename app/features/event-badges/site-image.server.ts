import fs from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { PORTRAIT_EXTENSIONS, PORTRAIT_URL_MESSAGE } from "./preview";

export { PORTRAIT_URL_MESSAGE };

const IMAGE_EXTENSIONS = new Set<string>(PORTRAIT_EXTENSIONS);
const MAX_BYTES = 6 * 1024 * 1024; // the portrait limit of spec section 9
const PORTRAIT_PX = 512;

export class SiteImageError extends Error {
  constructor() {
    super(PORTRAIT_URL_MESSAGE);
  }
}

let publicRoot: string | null | undefined;

/**
 * The folder the site's static files are served from: build/client beside the server bundle,
 * else build/client or public under the working directory (tests, dev).
 */
function publicDir(): string | null {
  if (publicRoot !== undefined) return publicRoot;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.resolve(here, "../client"),
    path.resolve(process.cwd(), "build/client"),
    path.resolve(process.cwd(), "public"),
  ];
  publicRoot = candidates.find((d) => existsSync(d)) ?? null;
  return publicRoot;
}

/** Tests point the resolver at a folder of their own. */
export function setPublicDirForTests(dir: string | undefined) {
  publicRoot = dir;
  cache.clear();
}

/**
 * Resolves a site-relative image path ('/brand/x.png') to a file inside the public folder.
 * Never fetches: absolute URLs, protocol-relative URLs, traversal, symlinks that leave the
 * folder and non-image extensions are all refused.
 */
export async function resolveSiteImage(urlPath: string): Promise<string> {
  const root = publicDir();
  if (!root) throw new SiteImageError();
  if (!urlPath.startsWith("/") || urlPath.startsWith("//") || urlPath.includes("\\")) throw new SiteImageError();
  let pathname: string;
  try {
    const url = new URL(urlPath, "http://site.invalid");
    if (url.host !== "site.invalid") throw new SiteImageError();
    pathname = decodeURIComponent(url.pathname);
  } catch {
    throw new SiteImageError();
  }
  if (pathname.includes("\0") || pathname.split("/").some((seg) => seg === "..")) throw new SiteImageError();
  if (!IMAGE_EXTENSIONS.has(path.extname(pathname).toLowerCase())) throw new SiteImageError();

  const realRoot = await fs.realpath(root);
  let file: string;
  try {
    file = await fs.realpath(path.join(realRoot, pathname));
  } catch {
    throw new SiteImageError();
  }
  if (!file.startsWith(realRoot + path.sep)) throw new SiteImageError();
  const stat = await fs.stat(file);
  if (!stat.isFile() || stat.size > MAX_BYTES) throw new SiteImageError();
  return file;
}

type Cached = { mtimeMs: number; png: Buffer };
const cache = new Map<string, Cached>();
const CACHE_ENTRIES = 24;

/** A site image as a square PNG portrait (EXIF-rotated, centre-cropped, 512 px). */
export async function loadSitePortrait(urlPath: string): Promise<Buffer> {
  const file = await resolveSiteImage(urlPath);
  const { mtimeMs } = await fs.stat(file);
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.png;
  let png: Buffer;
  try {
    png = await sharp(file, { limitInputPixels: 40_000_000, animated: false })
      .rotate()
      .resize(PORTRAIT_PX, PORTRAIT_PX, { fit: "cover", position: "attention" })
      .png()
      .toBuffer();
  } catch {
    // Unsupported or corrupt image: the same answer as any other unusable portrait URL.
    throw new SiteImageError();
  }
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(file, { mtimeMs, png });
  return png;
}
