import type { EventRecord } from "./event";
import { findTier } from "./tiers";
import { renderBadgePng, renderPosterPng } from "./kit.server";
import type { PreviewImageQuery } from "./preview.schema";
import { loadSitePortrait } from "./site-image.server";

/**
 * The design surface re-renders as people type, so identical requests are answered from a small
 * memory cache, and at most two renders run at once; the rest wait their turn, and beyond a
 * short queue the caller is told to try again (the page simply keeps the previous picture).
 */
const MAX_RUNNING = 2;
const MAX_WAITING = 8;
const CACHE_BYTES = 24 * 1024 * 1024;

let running = 0;
const waiting: Array<() => void> = [];

export class PreviewBusyError extends Error {}

async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING) throw new PreviewBusyError("Previews are busy; try again in a moment.");
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running += 1;
  try {
    return await fn();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

const cache = new Map<string, Buffer>();
let cacheBytes = 0;

function remember(key: string, png: Buffer) {
  cache.set(key, png);
  cacheBytes += png.length;
  while (cacheBytes > CACHE_BYTES && cache.size > 1) {
    const [oldest, buf] = cache.entries().next().value!;
    cache.delete(oldest);
    cacheBytes -= buf.length;
  }
}

/** One preview image. Throws SiteImageError for an unusable portrait URL. */
export async function renderPreview(query: PreviewImageQuery & { share: string; event: EventRecord }): Promise<Buffer> {
  const e = query.event;
  const key = JSON.stringify([query.kind, query.tier, query.name, query.share, query.portrait ?? "", e.title, e.date, e.venue]);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const tier = findTier(query.tier)!;
  const portraitPng = query.portrait ? await loadSitePortrait(query.portrait) : null;
  const input = { tier, name: query.name, shareUrl: query.share, portraitPng, event: e };
  const png = await withSlot(() => (query.kind === "poster" ? renderPosterPng(input) : renderBadgePng(input)));
  remember(key, png);
  return png;
}
