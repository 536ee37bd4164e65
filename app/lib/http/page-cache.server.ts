import crypto from "node:crypto";
import zlib from "node:zlib";
import type { EntryContext } from "react-router";
import { broadcast, onBroadcast } from "../server/cluster-bus.server";
import { watchContentVersion } from "../server/content-version.server";
import { cookieNames } from "../core/cookie-names";
import { prefersLite } from "../core/data-saver";
import { loopBusy } from "../server/loop-watch.server";
import { knownSearch, type CacheHandle, type PersonalPart } from "../core/page-cache";

/**
 * Rendered pages that are the same for every visitor, kept in memory as the bytes to send: the
 * body once, with its gzip and brotli forms made once beside it, and its headers. A route opts
 * in with `handle.cacheSeconds`; only GETs answered 200 are kept. Inline scripts are allowed by
 * their hashes in the page's Content-Security-Policy rather than by a per-response nonce, so
 * every visitor gets byte-identical (and already compressed) answers. What a request still adds
 * is its own: the client-id cookie of a first visit and the page view (app/server/server.ts).
 *
 * A page is personal for a visitor who carries what its loader reads (`personalBy`): their
 * client id (a post shows their own reactions and votes), their bag, or a staff session. Such
 * requests are never answered from here nor stored. Staff changes forget the pages they touch
 * at once (clearPageCache), in every server process; the lifetime is only a backstop.
 *
 * A crawler cannot flush it. The key holds only the query parameters the route reads
 * (`handle.cacheQuery`), so `?u=<random>` is the same page from the same entry. Pages start
 * 'cold'; a page asked for again becomes 'hot', and only cold pages make room for new ones
 * (a segmented LRU: a stream of one-off addresses churns among the cold and never pushes out
 * `/`). One page's variants (its query values, Lite, spellings of its path) are at most
 * `MAX_VARIANTS`. A stored page is compressed cheaply at once, and with brotli's best setting
 * in the background once it is hot, one page at a time and never while the server is busy.
 */
/** The page view a cached document counts: its page name and path, and the post it counts a view of. */
export type DocumentView = { page: string; path: string; blogSlug?: string };

export type CachedDocument = {
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  /** Response headers without Set-Cookie: the hash-based policy, Vary, Content-Type, Cache-Control. */
  headers: [string, string][];
  etag: string;
  view: DocumentView;
};

type Entry = CachedDocument & {
  key: string;
  expires: number;
  personalBy: readonly PersonalPart[];
  /** The page the key is a variant of (see `pageGroup`): the unit of forgetting and of the variant cap. */
  group: string;
  /** Its brotli is, or is about to be, the best there is. */
  refined?: boolean;
};

const MAX_ENTRIES = 200;
/** Hot pages may fill this much; the rest is room for new ones. */
const MAX_HOT = 160;
/** Entries one page may have: its query variants, Lite and not, spellings of its path. */
const MAX_VARIANTS = 16;
/** Longer keys (query values) are nobody's shared link: such pages are rendered, not kept. */
const MAX_KEY_LENGTH = 512;
const QUICK_BROTLI = 5;
const BEST_BROTLI = 11;

/** Oldest first; a page asked for again moves to `hot`. */
const cold = new Map<string, Entry>();
/** Least recently used first. */
const hot = new Map<string, Entry>();
const variants = new Map<string, Set<string>>();
/** Keys that were hot when forgotten: rendered again, they start hot. */
const wasHot = new Set<string>();
/** Each page's `cacheQuery`, learned when it is stored, for the server's fast path. */
const knownQueries = new Map<string, readonly string[]>();

const PERSONAL_COOKIE: Record<PersonalPart, string> = { visitor: "cid", bag: "bag", staff: "__admin" };
/** What the client-id and bag readers match (the analytics feature and the merch routes). */
const PERSONAL_PATTERN: Record<PersonalPart, RegExp> = {
  visitor: /(?:^|;\s*)cid=/,
  bag: /(?:^|;\s*)bag=/,
  staff: /(?:^|;\s*)__admin=/,
};

/**
 * True when the request carries something that makes the page its own (see `personalBy`):
 * a cookie by that name as the session reader parses cookies (`__admin =…` included), or as
 * the client-id and bag readers match them.
 */
export function isPersonal(headers: Headers, parts: readonly PersonalPart[]): boolean {
  if (!parts.length) return false;
  const cookie = headers.get("cookie") ?? "";
  let names: Set<string> | undefined;
  for (const part of parts) {
    if (part === "visitor" && headers.has("x-client-id")) return true;
    if (!cookie) continue;
    if (PERSONAL_PATTERN[part].test(cookie)) return true;
    names ??= cookieNames(cookie);
    if (names.has(PERSONAL_COOKIE[part])) return true;
  }
  return false;
}

/**
 * The deepest matched route's cache policy for this request: its lifetime (0 when it does not
 * opt in, or when the request is personal to it), what makes it personal, and the query
 * parameters it reads.
 */
export function cachePolicyFor(
  context: EntryContext,
  headers: Headers,
): { seconds: number; personalBy: readonly PersonalPart[]; query?: readonly string[] } {
  let handle: CacheHandle | undefined;
  for (const m of context.staticHandlerContext.matches) {
    if (m.route.id === "root") continue;
    handle = context.routeModules[m.route.id]?.handle as CacheHandle | undefined;
  }
  const personalBy = handle?.personalBy ?? [];
  const seconds = handle?.cacheSeconds ?? 0;
  return { seconds: seconds > 0 && !isPersonal(headers, personalBy) ? seconds : 0, personalBy, query: handle?.cacheQuery };
}

/**
 * The page an address is a variant of, as the router sees it: escapes of plain characters
 * decoded, letters lower-cased (routes match either case), no trailing slash. `/About/` and
 * `/%61bout` are `/about`.
 */
export function pageGroup(pathname: string): string {
  // The usual address is its own page: nothing to decode, lower or trim.
  if (!/[%A-Z]|.\/$/.test(pathname)) return pathname;
  const decoded = pathname.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : escape;
  });
  return decoded.toLowerCase().replace(/\/+$/, "") || "/";
}

/**
 * The cache key of a page: whether it is the Lite page (no scripts, different bytes), its path,
 * and the values of the query parameters the route reads (`query`), nothing else.
 */
export const pageCacheKey = (headers: Headers, url: URL, query: readonly string[] = []) =>
  `${prefersLite(headers) ? "lite:" : ""}${url.pathname}${knownSearch(url.searchParams, query)}`;

/** The server's fast path: the cached page for this address, before any routing. */
export function cachedPageFor(url: URL, headers: Headers): CachedDocument | undefined {
  const query = knownQueries.get(pageGroup(url.pathname));
  return query ? cachedDocument(pageCacheKey(headers, url, query), headers) : undefined;
}

/** The CSP source of each inline script in `html` ('sha256-…'), in order, without repeats. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(m[1]!) || !m[2]) continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(m[2], "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * The document to send for `key` to a request with these headers, or undefined when there is
 * none, it has expired, or the request is personal to the page. A page asked for again
 * becomes hot.
 */
export function cachedDocument(key: string, headers: Headers): CachedDocument | undefined {
  const hit = hot.get(key) ?? cold.get(key);
  if (!hit) return undefined;
  if (hit.expires <= Date.now()) {
    remove(hit);
    return undefined;
  }
  if (isPersonal(headers, hit.personalBy)) return undefined;
  if (hot.has(key)) {
    hot.delete(key);
    hot.set(key, hit);
  } else {
    cold.delete(key);
    makeHot(hit);
  }
  return hit;
}

function makeHot(entry: Entry) {
  hot.set(entry.key, entry);
  while (hot.size > MAX_HOT) {
    const [key, oldest] = hot.entries().next().value!;
    hot.delete(key);
    cold.set(key, oldest);
  }
  refine(entry);
}

function remove(entry: Entry) {
  if (hot.get(entry.key) === entry) {
    hot.delete(entry.key);
    wasHot.add(entry.key);
    if (wasHot.size > MAX_ENTRIES) wasHot.delete(wasHot.values().next().value!);
  } else if (cold.get(entry.key) === entry) {
    cold.delete(entry.key);
  }
  const keys = variants.get(entry.group);
  keys?.delete(entry.key);
  if (keys?.size === 0) variants.delete(entry.group);
}

/** The least valuable of `group`'s entries: its oldest cold one, else its least used hot one. */
function leastOf(group: string): Entry | undefined {
  for (const e of cold.values()) if (e.group === group) return e;
  for (const e of hot.values()) if (e.group === group) return e;
  return undefined;
}

/**
 * Keeps a rendered page: its body, headers (any Set-Cookie is dropped: it belonged to the
 * request that rendered it) and view. Its gzip and a quick brotli (about 1 ms each) are made off
 * the main thread and added when ready, until then the page is sent as it is; brotli's best
 * comes once the page is hot. `query` is the route's `cacheQuery`, which the server's fast path
 * needs to find the page again.
 */
export function storePage(
  key: string,
  page: {
    html: string;
    headers: Headers | [string, string][];
    view: DocumentView;
    seconds: number;
    personalBy?: readonly PersonalPart[];
    query?: readonly string[];
  },
) {
  const path = key.replace(/^lite:/, "").replace(/\?.*$/s, "");
  const group = pageGroup(path);
  if (page.query) {
    knownQueries.delete(group);
    knownQueries.set(group, page.query);
    if (knownQueries.size > MAX_ENTRIES * 8) knownQueries.delete(knownQueries.keys().next().value!);
  }
  if (key.length > MAX_KEY_LENGTH) return;
  const previous = hot.get(key) ?? cold.get(key);
  if (previous) remove(previous);
  let keys = variants.get(group);
  if (keys && keys.size >= MAX_VARIANTS) {
    const least = leastOf(group);
    if (least) remove(least);
  }
  const body = Buffer.from(page.html, "utf8");
  // Sent as brotli, gzip or plain by what the request accepts: caches must tell them apart.
  const headers = [...page.headers]
    .filter(([k]) => k.toLowerCase() !== "set-cookie")
    .map(([k, v]): [string, string] => (k.toLowerCase() === "vary" && !/accept-encoding/i.test(v) ? [k, `${v}, Accept-Encoding`] : [k, v]));
  const entry: Entry = {
    key,
    body,
    headers,
    etag: `W/"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
    view: page.view,
    expires: Date.now() + page.seconds * 1000,
    personalBy: page.personalBy ?? [],
    group,
  };
  keys = variants.get(group) ?? new Set();
  keys.add(key);
  variants.set(group, keys);
  watchScope(group);
  zlib.gzip(body, { level: 6 }, (err, gzip) => {
    if (!err) entry.gzip = gzip;
  });
  brotli(body, QUICK_BROTLI, (br) => {
    if (br && !entry.br) entry.br = br;
  });
  if (wasHot.delete(key)) makeHot(entry);
  else cold.set(key, entry);
  while (hot.size + cold.size > MAX_ENTRIES) {
    const oldest = (cold.size ? cold : hot).values().next().value!;
    remove(oldest);
  }
}

function brotli(body: Buffer, quality: number, done: (br: Buffer | undefined) => void) {
  zlib.brotliCompress(
    body,
    { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } },
    (err, br) => done(err ? undefined : br),
  );
}

/** Hot pages waiting for their best brotli, made one at a time (about 50 ms of CPU each). */
const refining: Entry[] = [];
let refiningNow = false;

function refine(entry: Entry) {
  if (entry.refined) return;
  entry.refined = true;
  refining.push(entry);
  // Never more waiting than the cache holds: the oldest keep their quick brotli.
  if (refining.length > MAX_ENTRIES) refining.shift();
  refineNext();
}

function refineNext() {
  if (refiningNow) return;
  const entry = refining.shift();
  if (!entry) return;
  if ((hot.get(entry.key) ?? cold.get(entry.key)) !== entry) return refineNext();
  if (loopBusy()) {
    // Not while the server sheds work: look again in a second.
    refining.unshift(entry);
    refiningNow = true;
    setTimeout(() => {
      refiningNow = false;
      refineNext();
    }, 1_000).unref();
    return;
  }
  refiningNow = true;
  brotli(entry.body, BEST_BROTLI, (br) => {
    if (br) entry.br = br;
    refiningNow = false;
    refineNext();
  });
}

/** The scopes a change can forget on its own; anything else empties the whole cache. */
export type CacheScope = "/blogs" | "/event" | "/badges" | `/blogs/${string}`;
const SCOPES: readonly CacheScope[] = ["/blogs", "/event", "/badges"];

function forget(scope?: string) {
  for (const entry of [...hot.values(), ...cold.values()]) {
    if (!scope || entry.group === scope || entry.group.startsWith(`${scope}/`)) remove(entry);
  }
}

/**
 * Forgets cached pages here and, with several server processes, in every other one too: all
 * of them, or those under `scope` (a post's reactions and votes change only that post's
 * pages; an order approved or rejected, only the event's goal bar).
 */
export function clearPageCache(scope?: CacheScope) {
  const group = scope ? pageGroup(scope) : undefined;
  forget(group);
  broadcast(group ? `${CLEAR_TOPIC}:${group}` : CLEAR_TOPIC);
}

const CLEAR_TOPIC = "page-cache:clear";
onBroadcast(CLEAR_TOPIC, () => forget());
// Content changed by a command run beside the site (the old site's import): every page goes.
watchContentVersion(() => forget());
const watched = new Set<string>(SCOPES);
for (const scope of SCOPES) onBroadcast(`${CLEAR_TOPIC}:${scope}`, () => forget(scope));

/** A post's own scope is listened for by the processes that keep one of its pages. */
function watchScope(group: string) {
  if (watched.has(group) || !/^\/blogs\/[^/]+$/.test(group)) return;
  watched.add(group);
  onBroadcast(`${CLEAR_TOPIC}:${group}`, () => forget(group));
}
