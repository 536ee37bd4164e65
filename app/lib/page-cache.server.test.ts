import { afterEach, describe, expect, it, vi } from "vitest";
import type { EntryContext } from "react-router";
import { cachedPage, cacheSecondsFor, clearPageCache, storePage } from "./page-cache.server";

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

describe("page cache", () => {
  it("gives each hit the request's own nonce everywhere the stored one stood", () => {
    storePage("/", '<script nonce="AAA+/=">x</script><link nonce="AAA+/="/>', "AAA+/=", 60);
    expect(cachedPage("/", "BBB")).toBe('<script nonce="BBB">x</script><link nonce="BBB"/>');
  });

  it("forgets a page after its lifetime", () => {
    vi.useFakeTimers();
    storePage("/about", "<p>x</p>", "N", 60);
    vi.advanceTimersByTime(59_000);
    expect(cachedPage("/about", "N")).toBe("<p>x</p>");
    vi.advanceTimersByTime(2_000);
    expect(cachedPage("/about", "N")).toBeUndefined();
  });

  it("keys by path and query", () => {
    storePage("/?a=1", "one", "N", 60);
    expect(cachedPage("/?a=2", "N")).toBeUndefined();
  });

  it("caches only routes that opt in, judged by the deepest route", () => {
    expect(cacheSecondsFor(contextWith({ root: {}, home: { page: "home", cacheSeconds: 60 } }))).toBe(60);
    expect(cacheSecondsFor(contextWith({ root: {}, event: { page: "event" } }))).toBe(0);
    expect(cacheSecondsFor(contextWith({ root: { cacheSeconds: 60 }, admin: {} }))).toBe(0);
  });
});
