import crypto from "node:crypto";
import zlib from "node:zlib";
import type { EntryContext } from "react-router";
import { broadcast, onBroadcast } from "./cluster-bus.server";
import { prefersLite } from "./data-saver";
import type { CacheHandle, PersonalPart } from "./page-cache";

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

type Entry = CachedDocument & { expires: number; personalBy: readonly PersonalPart[]; path: string };

const MAX_ENTRIES = 200;
const entries = new Map<string, Entry>();

const PERSONAL_COOKIE: Record<PersonalPart, RegExp> = {
  visitor: /(?:^|;\s*)cid=/,
  bag: /(?:^|;\s*)bag=/,
  staff: /(?:^|;\s*)__admin=/,
};

/** True when the request carries something that makes the page its own (see `personalBy`). */
export function isPersonal(headers: Headers, parts: readonly PersonalPart[]): boolean {
  if (!parts.length) return false;
  const cookie = headers.get("cookie") ?? "";
  for (const part of parts) {
    if (part === "visitor" && headers.has("x-client-id")) return true;
    if (cookie && PERSONAL_COOKIE[part].test(cookie)) return true;
  }
  return false;
}

/**
 * The deepest matched route's cache policy for this request: its lifetime (0 when it does not
 * opt in, or when the request is personal to it) and what makes it personal.
 */
export function cachePolicyFor(context: EntryContext, headers: Headers): { seconds: number; personalBy: readonly PersonalPart[] } {
  let handle: CacheHandle | undefined;
  for (const m of context.staticHandlerContext.matches) {
    if (m.route.id === "root") continue;
    handle = context.routeModules[m.route.id]?.handle as CacheHandle | undefined;
  }
  const personalBy = handle?.personalBy ?? [];
  const seconds = handle?.cacheSeconds ?? 0;
  return { seconds: seconds > 0 && !isPersonal(headers, personalBy) ? seconds : 0, personalBy };
}

/**
 * The cache key of a page: its address, and whether it is the Lite page (no scripts), which is
 * different bytes for the same address. The router's render and the server's fast path both
 * use it.
 */
export const pageCacheKey = (headers: Headers, url: URL) => `${prefersLite(headers) ? "lite:" : ""}${url.pathname}${url.search}`;

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
 * none, it has expired, or the request is personal to the page.
 */
export function cachedDocument(key: string, headers: Headers): CachedDocument | undefined {
  const hit = entries.get(key);
  if (!hit) return undefined;
  if (hit.expires <= Date.now()) {
    entries.delete(key);
    return undefined;
  }
  return isPersonal(headers, hit.personalBy) ? undefined : hit;
}

/**
 * Keeps a rendered page: its body, headers (any Set-Cookie is dropped: it belonged to the
 * request that rendered it) and view. gzip and brotli forms are made off the main thread and
 * added when ready; until then the page is sent as it is.
 */
export function storePage(
  key: string,
  page: { html: string; headers: Headers | [string, string][]; view: DocumentView; seconds: number; personalBy?: readonly PersonalPart[] },
) {
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  const body = Buffer.from(page.html, "utf8");
  // Sent as brotli, gzip or plain by what the request accepts: caches must tell them apart.
  const headers = [...page.headers]
    .filter(([k]) => k.toLowerCase() !== "set-cookie")
    .map(([k, v]): [string, string] => (k.toLowerCase() === "vary" && !/accept-encoding/i.test(v) ? [k, `${v}, Accept-Encoding`] : [k, v]));
  const entry: Entry = {
    body,
    headers,
    etag: `W/"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
    view: page.view,
    expires: Date.now() + page.seconds * 1000,
    personalBy: page.personalBy ?? [],
    path: key.replace(/^lite:/, ""),
  };
  entries.set(key, entry);
  zlib.gzip(body, { level: 9 }, (err, gzip) => {
    if (!err) entry.gzip = gzip;
  });
  zlib.brotliCompress(
    body,
    { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } },
    (err, br) => {
      if (!err) entry.br = br;
    },
  );
}

/** The scopes a change can forget on its own; anything else empties the whole cache. */
export type CacheScope = "/blogs" | "/event" | "/badges";
const SCOPES: readonly CacheScope[] = ["/blogs", "/event", "/badges"];

function forget(scope?: CacheScope) {
  if (!scope) return entries.clear();
  for (const [key, entry] of entries) if (entry.path === scope || entry.path.startsWith(`${scope}/`) || entry.path.startsWith(`${scope}?`)) entries.delete(key);
}

/**
 * Forgets cached pages here and, with several server processes, in every other one too: all
 * of them, or those under `scope` (a post's reactions and votes change only the blog's pages;
 * an order approved or rejected, only the event's goal bar).
 */
export function clearPageCache(scope?: CacheScope) {
  forget(scope);
  broadcast(scope ? `${CLEAR_TOPIC}:${scope}` : CLEAR_TOPIC);
}

const CLEAR_TOPIC = "page-cache:clear";
onBroadcast(CLEAR_TOPIC, () => forget());
for (const scope of SCOPES) onBroadcast(`${CLEAR_TOPIC}:${scope}`, () => forget(scope));
