import type { EntryContext } from "react-router";
import { broadcast, onBroadcast } from "./cluster-bus.server";
import { prefersLite } from "./data-saver";

/**
 * A short-lived cache of rendered HTML for pages that are the same for every visitor (the
 * information pages). A route opts in with `handle.cacheSeconds`; only GETs answered 200 are
 * kept. The body is stored with its CSP nonce, which is swapped for each request's own nonce,
 * so every response still carries a fresh nonce. Headers (cookies, CSP) are never cached.
 */
type Entry = { html: string; nonce: string; expires: number; head?: CachedHead };

/**
 * What the server needs to answer a cached page without React Router: the response headers
 * (never a Set-Cookie; the CSP carries the stored nonce, swapped like the body's) and the page
 * view to count.
 */
export type CachedHead = { headers: [string, string][]; page: string; path: string };

const MAX_ENTRIES = 200;
const entries = new Map<string, Entry>();

export type CacheHandle = { cacheSeconds?: number };

/** The deepest matched route's cache lifetime, or 0 when any matched route opts out. */
export function cacheSecondsFor(context: EntryContext): number {
  let seconds = 0;
  for (const m of context.staticHandlerContext.matches) {
    const handle = context.routeModules[m.route.id]?.handle as CacheHandle | undefined;
    if (m.route.id === "root") continue;
    seconds = handle?.cacheSeconds ?? 0;
  }
  return seconds;
}

/**
 * The cache key of a page: its address, and whether it is the Lite page (no scripts), which is
 * different bytes for the same address. The router's render and the server's fast path both
 * use it.
 */
export const pageCacheKey = (headers: Headers, url: URL) => `${prefersLite(headers) ? "lite:" : ""}${url.pathname}${url.search}`;

/** The live entry for `key`; an expired one is dropped. */
function live(key: string): Entry | undefined {
  const hit = entries.get(key);
  if (hit && hit.expires <= Date.now()) {
    entries.delete(key);
    return undefined;
  }
  return hit;
}

export function cachedPage(key: string, nonce: string): string | undefined {
  const hit = live(key);
  return hit?.html.replaceAll(hit.nonce, nonce);
}

/**
 * A whole cached document (body and headers) for the server's fast path, with `nonce` swapped
 * in everywhere; undefined when there is none or it has expired.
 */
export function cachedDocument(key: string, nonce: string): (CachedHead & { html: string }) | undefined {
  const hit = live(key);
  if (!hit?.head) return undefined;
  return {
    html: hit.html.replaceAll(hit.nonce, nonce),
    headers: hit.head.headers.map(([k, v]) => [k, v.replaceAll(hit.nonce, nonce)]),
    page: hit.head.page,
    path: hit.head.path,
  };
}

export function storePage(key: string, html: string, nonce: string, seconds: number, head?: CachedHead) {
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  const headers = head?.headers.filter(([k]) => k.toLowerCase() !== "set-cookie");
  entries.set(key, { html, nonce, expires: Date.now() + seconds * 1000, head: head && headers ? { ...head, headers } : undefined });
}

/** Empties the cache here and, with several server processes, in every other one too. */
export function clearPageCache() {
  entries.clear();
  broadcast(CLEAR_TOPIC);
}

const CLEAR_TOPIC = "page-cache:clear";
onBroadcast(CLEAR_TOPIC, () => entries.clear());
