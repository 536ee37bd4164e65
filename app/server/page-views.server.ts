import type { EntryContext } from "react-router";
import { clientIdCookie, isBotAgent, newClientId, queueEvent, readClientId, toRow } from "~/features/analytics/analytics.server";
import { blogViewSource, type PageHandle } from "~/features/analytics/page-view";
import { env } from "~/lib/server/env.server";
import type { DocumentView } from "~/lib/http/page-cache.server";

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
  const counted = countDocumentView(request.headers, documentViewOf(context, url), url);
  if (counted?.setCookie) headers.append("Set-Cookie", counted.setCookie);
}

/** The page name and path a document's view is counted under, and the post it also counts a view of. */
export function documentViewOf(context: EntryContext, url: URL): DocumentView {
  const deepest = context.staticHandlerContext.matches.at(-1);
  const handle = deepest ? (context.routeModules[deepest.route.id]?.handle as PageHandle | undefined) : undefined;
  const slug = deepest?.params.slug;
  return {
    page: pageNameFor(context, url.pathname),
    path: handle?.path ?? url.pathname,
    ...(handle?.blogView && slug ? { blogSlug: slug } : {}),
  };
}

/**
 * Counts one document view (not for bots) under the visitor's client id, making one when the
 * request has none: then `setCookie` is the cookie to send with the answer. The router's
 * render and the server's page-cache fast path both count through here.
 */
export function countDocumentView(requestHeaders: Headers, view: DocumentView, url: URL): { cid: string; setCookie?: string } | undefined {
  if (isBotAgent(requestHeaders.get("user-agent"))) return undefined;
  let cid = readClientId(requestHeaders);
  let setCookie: string | undefined;
  if (!cid) {
    cid = newClientId();
    setCookie = clientIdCookie(cid, env().publicUrl.startsWith("https://"));
  }
  const ref = requestHeaders.get("referer") ?? "";
  queueEvent(toRow({ type: "page.view", page: view.page, path: view.path, ref }, cid));
  if (view.blogSlug) queueEvent(toRow({ type: "blog.view", slug: view.blogSlug, src: blogViewSource(url), ref }, cid));
  return { cid, setCookie };
}
