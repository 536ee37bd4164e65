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
  if (isBotAgent(request.headers.get("user-agent"))) return;
  let cid = readClientId(request.headers);
  if (!cid) {
    cid = newClientId();
    headers.append("Set-Cookie", clientIdCookie(cid, env().publicUrl.startsWith("https://")));
  }
  const url = new URL(request.url);
  const page = pageNameFor(context, url.pathname);
  const ref = request.headers.get("referer") ?? "";
  const deepest = context.staticHandlerContext.matches.at(-1);
  const handle = deepest ? (context.routeModules[deepest.route.id]?.handle as PageHandle | undefined) : undefined;
  queueEvent(toRow({ type: "page.view", page, path: handle?.path ?? url.pathname, ref }, cid));
  const slug = deepest?.params.slug;
  if (handle?.blogView && slug) {
    queueEvent(toRow({ type: "blog.view", slug, src: blogViewSource(url), ref }, cid));
  }
}
