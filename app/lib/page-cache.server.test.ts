import { afterEach, describe, expect, it, vi } from "vitest";
import crypto from "node:crypto";
import zlib from "node:zlib";
import type { EntryContext } from "react-router";
import { cachedDocument, cachePolicyFor, clearPageCache, inlineScriptHashes, isPersonal, storePage } from "./page-cache.server";

afterEach(() => {
  clearPageCache();
  vi.useRealTimers();
});

function contextWith(handles: Record<string, unknown>): EntryContext {
  return {
    staticHandlerContext: { matches: Object.keys(handles).map((id) => ({ route: { id } })) },
    routeModules: Object.fromEntries(Object.entries(handles).map(([id, handle]) => [id, { handle }])),
  } as unknown as EntryContext;
}

const none = new Headers();
const page = (html: string, extra: Partial<Parameters<typeof storePage>[1]> = {}) => ({
  html,
  headers: [["Content-Type", "text/html; charset=utf-8"], ["Vary", "Save-Data, Cookie"], ["Set-Cookie", "cid=abc"]] as [string, string][],
  view: { page: "about", path: "/about" },
  seconds: 60,
  ...extra,
});

describe("page cache", () => {
  it("keeps the page's bytes and headers, never the Set-Cookie of the request that rendered it, and varies by encoding", () => {
    storePage("/about", page("<p>About</p>"));
    const hit = cachedDocument("/about", none)!;
    expect(hit.body.toString()).toBe("<p>About</p>");
    expect(hit.headers.some(([k]) => k.toLowerCase() === "set-cookie")).toBe(false);
    expect(Object.fromEntries(hit.headers).Vary).toBe("Save-Data, Cookie, Accept-Encoding");
    expect(hit.etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
  });

  it("adds gzip and brotli forms of the same bytes once they are made", async () => {
    const html = `<main>${"Street outreach in Nairobi. ".repeat(200)}</main>`;
    storePage("/", page(html));
    await vi.waitFor(() => expect(cachedDocument("/", none)?.br && cachedDocument("/", none)?.gzip).toBeTruthy());
    const hit = cachedDocument("/", none)!;
    expect(zlib.gunzipSync(hit.gzip!).toString()).toBe(html);
    expect(zlib.brotliDecompressSync(hit.br!).toString()).toBe(html);
    expect(hit.br!.length).toBeLessThan(html.length / 10);
  });

  it("forgets a page after its lifetime", () => {
    vi.useFakeTimers();
    storePage("/about", page("<p>x</p>"));
    vi.advanceTimersByTime(59_000);
    expect(cachedDocument("/about", none)?.body.toString()).toBe("<p>x</p>");
    vi.advanceTimersByTime(2_000);
    expect(cachedDocument("/about", none)).toBeUndefined();
  });

  it("keys by path and query", () => {
    storePage("/?a=1", page("one"));
    expect(cachedDocument("/?a=2", none)).toBeUndefined();
  });

  it("never answers a request that is personal to the page", () => {
    storePage("/merchandise", page("store", { personalBy: ["bag"] }));
    storePage("/blogs/x", page("post", { personalBy: ["visitor"] }));
    const withCookie = (cookie: string) => new Headers({ cookie });
    expect(cachedDocument("/merchandise", withCookie("cid=0123456789abcdef0123456789abcdef"))).toBeDefined();
    expect(cachedDocument("/merchandise", withCookie("lite=0; bag=abcdefghijklmnopqrstuvwx"))).toBeUndefined();
    expect(cachedDocument("/blogs/x", withCookie("cid=0123456789abcdef0123456789abcdef"))).toBeUndefined();
    expect(cachedDocument("/blogs/x", new Headers({ "x-client-id": "0123456789abcdef0123456789abcdef" }))).toBeUndefined();
    expect(cachedDocument("/blogs/x", withCookie("mybag=1; xcid=2"))).toBeDefined();
    expect(isPersonal(withCookie("__admin=s%3Aabc"), ["staff"])).toBe(true);
  });

  it("forgets only the blog's pages when a post's counts change, and everything on a staff change", () => {
    for (const key of ["/", "/blogs", "/blogs/a", "lite:/blogs/a", "/blogs?tag=x", "/blogsmore"]) storePage(key, page(key));
    clearPageCache("/blogs");
    expect(["/", "/blogs", "/blogs/a", "lite:/blogs/a", "/blogs?tag=x", "/blogsmore"].map((k) => !!cachedDocument(k, none))).toEqual([
      true, false, false, false, false, true,
    ]);
    clearPageCache();
    expect(cachedDocument("/", none)).toBeUndefined();
  });

  it("caches only routes that opt in, judged by the deepest route, and not for a request personal to it", () => {
    expect(cachePolicyFor(contextWith({ root: {}, home: { page: "home", cacheSeconds: 60 } }), none).seconds).toBe(60);
    expect(cachePolicyFor(contextWith({ root: {}, event: { page: "event" } }), none).seconds).toBe(0);
    expect(cachePolicyFor(contextWith({ root: { cacheSeconds: 60 }, admin: {} }), none).seconds).toBe(0);
    const store = contextWith({ root: {}, store: { cacheSeconds: 60, personalBy: ["bag"] } });
    expect(cachePolicyFor(store, none)).toEqual({ seconds: 60, personalBy: ["bag"] });
    expect(cachePolicyFor(store, new Headers({ cookie: "bag=abcdefghijklmnopqrstuvwx" })).seconds).toBe(0);
  });

  it("hashes each inline script for the policy, not scripts loaded by src", () => {
    const a = "window.__ctx = {};";
    const html = `<script>${a}</script><script type="module" src="/assets/x.js"></script><script type="module">import("/a.js")</script><script>${a}</script>`;
    const sha = (s: string) => `'sha256-${crypto.createHash("sha256").update(s).digest("base64")}'`;
    expect(inlineScriptHashes(html)).toEqual([sha(a), sha('import("/a.js")')]);
  });
});
