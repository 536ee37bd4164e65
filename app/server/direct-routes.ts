import type { AppLoadContext, ServerBuild } from "react-router";
import { answersEveryRequest } from "~/lib/api.server";

type Params = Record<string, string>;
type Handler = (args: { request: Request; context: AppLoadContext; params: Params }) => Promise<Response>;
type Direct = (args: { request: Request; context: AppLoadContext }) => Promise<Response>;
type Route = NonNullable<ServerBuild["routes"][string]>;
type Entry = { loader?: Handler; action?: Handler };
/** A route's address as React Router reads it: fixed words, `:name`s, a final `*`. */
type Segment = { word: string } | { param: string } | { splat: true };

/**
 * The JSON API at its own addresses, answered without React Router's matching.
 *
 * React Router finds a request's route by flattening and ranking its routes and trying them one
 * by one (twice for a resource route: once to find it, once to run it), and copies the request
 * twice on the way; with this site's 88 routes that is about 0.1 ms of CPU a request, a tenth of
 * what a badge order costs in all. For a resource route whose loader or action answers every
 * request with a Response (jsonApi's, and the M-Pesa callbacks': `answeringEveryRequest`), the
 * server finds the route itself and calls that handler with the arguments React Router would
 * give it, and strips the body of a HEAD answer as React Router does:
 * - at a fixed address (no `:param`, no `*`), by a lookup in a map;
 * - at an address with `:param`s (the callbacks' secret paths), by comparing its words, only
 *   when no other route could answer a path it matches unless it ranks below it in React
 *   Router's own scoring (checked once, here), and only for a path without `%` (whose
 *   parameters React Router would decode).
 * Every other request, and any spelling of an address that is not the exact one (another letter
 * case, a trailing slash), goes through React Router as before and reaches the same handler there.
 */
export function directRoutes(build: ServerBuild): (method: string, pathname: string) => Direct | undefined {
  const fixed = new Map<string, Entry>();
  const patterns: { segments: Segment[]; entry: Entry }[] = [];
  // Every address React Router could match, a route with optional parts once per spelling.
  const all = Object.values(build.routes).flatMap((route) => (route ? spellingsOf(build, route).map((segments) => ({ route, segments })) : []));
  for (const { route, segments } of all) {
    if (route.index || route.module.default != null || route.module.ErrorBoundary != null) continue;
    if (segments.length === 0 || segments.some((s) => "splat" in s) || hasOptionalPart(build, route)) continue;
    const entry = { loader: complete(route.module.loader), action: complete(route.module.action) };
    if (!entry.loader && !entry.action) continue;
    if (segments.every((s) => "word" in s)) {
      fixed.set("/" + segments.map((s) => (s as { word: string }).word).join("/"), entry);
    } else if (all.every((other) => other.route === route || !overlaps(segments, other.segments) || score(other) < score({ route, segments }))) {
      patterns.push({ segments, entry });
    }
  }

  return (method, pathname) => {
    const isRead = method === "GET" || method === "HEAD";
    let handler: Handler | undefined;
    let params: Params = {};
    const entry = fixed.get(pathname);
    if (entry) handler = isRead ? entry.loader : entry.action;
    else if (patterns.length > 0 && !pathname.includes("%")) {
      const words = pathname.split("/").slice(1);
      for (const p of patterns) {
        const found = matchWords(p.segments, words);
        if (found) {
          handler = isRead ? p.entry.loader : p.entry.action;
          params = found;
          break;
        }
      }
    }
    if (!handler) return undefined;
    const run = handler;
    if (method !== "HEAD") return entry ? (run as Direct) : (args) => run({ ...args, params });
    return async (args) => {
      const response = await run({ ...args, params });
      return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  };
}

function complete(handler: unknown): Handler | undefined {
  return typeof handler === "function" && answersEveryRequest(handler) ? (handler as Handler) : undefined;
}

/** The parameters when `words` (a path split at '/') is exactly this address, else null. */
function matchWords(segments: Segment[], words: string[]): Params | null {
  if (words.length !== segments.length) return null;
  const params: Params = {};
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const w = words[i]!;
    if ("word" in s) {
      if (w !== s.word) return null;
    } else if ("param" in s) {
      if (w === "") return null;
      params[s.param] = w;
    }
  }
  return params;
}

/** A route's full address as written (under layouts without paths of their own), in words. */
function wordsOf(build: ServerBuild, route: Route): string[] {
  const parts: string[] = [];
  for (let r: Route | undefined = route; r; r = r.parentId ? build.routes[r.parentId] : undefined) {
    if (r.path) parts.unshift(r.path);
  }
  return parts.join("/").split("/").filter(Boolean);
}

const hasOptionalPart = (build: ServerBuild, route: Route) => wordsOf(build, route).some((w) => w.endsWith("?"));

/** A route's addresses in segments: one, or one for each way of writing its optional parts (`a/:b?`: `a`, `a/:b`). */
function spellingsOf(build: ServerBuild, route: Route): Segment[][] {
  let spellings: string[][] = [[]];
  for (const w of wordsOf(build, route)) {
    spellings = w.endsWith("?") ? spellings.flatMap((s) => [s, [...s, w.slice(0, -1)]]) : spellings.map((s) => [...s, w]);
  }
  return spellings.map((words) => words.map((w) => (w === "*" ? { splat: true } : w.startsWith(":") ? { param: w.slice(1) } : { word: w })));
}

/** Whether some path matches both addresses (React Router compares words without regard to case; a splat takes any rest, none included). */
function overlaps(a: Segment[], b: Segment[]): boolean {
  const splatAt = (s: Segment[]) => s.findIndex((x) => "splat" in x);
  const [sa, sb] = [splatAt(a), splatAt(b)];
  const fixedLength = (s: Segment[], at: number) => (at < 0 ? s.length : at);
  const [la, lb] = [fixedLength(a, sa), fixedLength(b, sb)];
  if (sa < 0 && sb < 0 && la !== lb) return false;
  if (sa < 0 && sb >= 0 && la < lb) return false;
  if (sb < 0 && sa >= 0 && lb < la) return false;
  for (let i = 0; i < Math.min(la, lb); i++) {
    const [x, y] = [a[i]!, b[i]!];
    if ("word" in x && "word" in y && x.word.toLowerCase() !== y.word.toLowerCase()) return false;
  }
  return true;
}

/** React Router's rank of a route (its computeScore, on the same path: words 10, parameters 3, the leading '' 1, a splat -2, an index 2, plus the count of parts). */
function score({ route, segments }: { route: Route; segments: Segment[] }): number {
  const parts = ["", ...segments.map((s) => ("word" in s ? s.word : "param" in s ? `:${s.param}` : "*"))];
  let total = parts.length + (parts.includes("*") ? -2 : 0) + (route.index ? 2 : 0);
  for (const p of parts) if (p !== "*") total += p.startsWith(":") ? 3 : p === "" ? 1 : 10;
  return total;
}
