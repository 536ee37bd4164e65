import { useLocation, useMatches } from "react-router";

/** What a page may ask of the page cache (app/lib/http/page-cache.server.ts), safe for route modules. */
export type PersonalPart = "visitor" | "bag" | "staff";

export type CacheHandle = {
  cacheSeconds?: number;
  personalBy?: readonly PersonalPart[];
  /**
   * The query parameters the page reads (its loader or its component): the only ones in its
   * cache key. Any other parameter (`?fbclid=`, `?utm_source=`, a crawler's `?u=123`) is left
   * out: the visitor gets the page as it is without it, from the cache.
   */
  cacheQuery?: readonly string[];
};

/** `search` with only the `query` parameters, in that order, each value as sent ("" when none). */
export function knownSearch(search: string | URLSearchParams, query: readonly string[]): string {
  if (!query.length) return "";
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const known = new URLSearchParams();
  for (const name of query) for (const value of params.getAll(name)) known.append(name, value);
  const text = known.toString();
  return text ? `?${text}` : "";
}

/**
 * The address's query as the page's cached copy knows it: on a page kept in the page cache,
 * only its `cacheQuery` parameters, so links built from it (the footer's Lite switch) are the
 * same in the cached bytes, on the server and in the browser; elsewhere the whole query.
 */
export function useKnownSearch(): string {
  const { search } = useLocation();
  const handle = useMatches().at(-1)?.handle as CacheHandle | undefined;
  return handle?.cacheSeconds ? knownSearch(search, handle.cacheQuery ?? []) : search;
}
