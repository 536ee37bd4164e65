import type { EntryContext } from "react-router";
import { clientIdCookie, isBotAgent, newClientId, queueEvent, readClientId, toRow } from "~/features/analytics/analytics.server";
import { blogViewSource, type PageHandle } from "~/features/analytics/page-view";
import { env } from "~/lib/env.server";

/** The page name a route declares in its `handle`, the deepest one winning. */
export function pageNameFor(context: EntryContext, pathname: string): string {
  let name: string | undefined;
  for (const m of context.staticHandlerContext.matches) {
    const handle = context.routeModules[m.route.id]?.handle as PageHandle | undefined;
    if (handle?.page) name = handle.page;
  }
  return name ?? (pathname.replace(/^\/+|\/+$/g, "").replace(/\//g, ".") || "home");
}

/**
 * Counts a page view when a document is served, so it is counted with or without
 * JavaScript; client-side navigations report theirs to /api/track.php instead.
 */
export function capturePageView(
  request: Request,
  status: number,
  headers: Headers,
  context: EntryContext,
) {
  if (request.method !== "GET" || status !== 200) return;
  const url = new URL(request.url);
  const view = pageViewOf(context, url);
  const counted = countPageView(request.headers, view.page, view.path);
  if (!counted) return;
  if (counted.setCookie) headers.append("Set-Cookie", counted.setCookie);
  const deepest = context.staticHandlerContext.matches.at(-1);
  const handle = deepest ? (context.routeModules[deepest.route.id]?.handle as PageHandle | undefined) : undefined;
  const slug = deepest?.params.slug;
  if (handle?.blogView && slug) {
    queueEvent(toRow({ type: "blog.view", slug, src: blogViewSource(url), ref: request.headers.get("referer") ?? "" }, counted.cid));
  }
}

/** The page name and path a document's view is counted under; `blogView` when it also counts a post view. */
export function pageViewOf(context: EntryContext, url: URL): { page: string; path: string; blogView: boolean } {
  const deepest = context.staticHandlerContext.matches.at(-1);
  const handle = deepest ? (context.routeModules[deepest.route.id]?.handle as PageHandle | undefined) : undefined;
  return { page: pageNameFor(context, url.pathname), path: handle?.path ?? url.pathname, blogView: !!handle?.blogView };
}

/**
 * Counts one page view (not for bots) under the visitor's client id, making one when the
 * request has none: then `setCookie` is the cookie to send with the answer.
 */
export function countPageView(requestHeaders: Headers, page: string, path: string): { cid: string; setCookie?: string } | undefined {
  if (isBotAgent(requestHeaders.get("user-agent"))) return undefined;
  let cid = readClientId(requestHeaders);
  let setCookie: string | undefined;
  if (!cid) {
    cid = newClientId();
    setCookie = clientIdCookie(cid, env().publicUrl.startsWith("https://"));
  }
  queueEvent(toRow({ type: "page.view", page, path, ref: requestHeaders.get("referer") ?? "" }, cid));
  return { cid, setCookie };
}
