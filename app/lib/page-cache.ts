/** What a page may ask of the page cache (app/lib/page-cache.server.ts), safe for route modules. */
export type PersonalPart = "visitor" | "bag" | "staff";

export type CacheHandle = { cacheSeconds?: number; personalBy?: readonly PersonalPart[] };
