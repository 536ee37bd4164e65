import type { AppLoadContext, ServerBuild } from "react-router";
import { answersEveryRequest } from "~/lib/api.server";

type Direct = (args: { request: Request; context: AppLoadContext }) => Promise<Response>;
type Route = NonNullable<ServerBuild["routes"][string]>;

/**
 * The JSON API at its own addresses, answered without React Router's matching.
 *
 * React Router finds a request's route by trying its ranked list of routes one by one (twice for a
 * resource route: once to find it, once to run it); with this site's 88 routes that is about
 * 0.1 ms of CPU a request, a tenth of what a badge order costs in all. For a resource route at a
 * fixed address (no `:param`, no `*`) whose loader or action is one of jsonApi's (it answers every
 * request with a Response, errors and wrong methods included), the server looks the address up
 * in a map and calls that handler with the same arguments React Router would give it, and strips
 * the body of a HEAD answer as React Router does. Every other request, and any spelling of an
 * address that is not the exact one (another letter case, a trailing slash), goes through React
 * Router as before and reaches the same handler there.
 */
export function directRoutes(build: ServerBuild): (method: string, pathname: string) => Direct | undefined {
  const byPath = new Map<string, { loader?: Direct; action?: Direct }>();
  for (const route of Object.values(build.routes)) {
    if (!route || route.module.default != null || route.module.ErrorBoundary != null) continue;
    const path = fullPath(build, route);
    if (!path) continue;
    const loader = route.module.loader;
    const action = route.module.action;
    byPath.set(path, {
      loader: loader && answersEveryRequest(loader) ? (loader as unknown as Direct) : undefined,
      action: action && answersEveryRequest(action) ? (action as unknown as Direct) : undefined,
    });
  }
  return (method, pathname) => {
    const entry = byPath.get(pathname);
    if (!entry) return undefined;
    const handler = method === "GET" || method === "HEAD" ? entry.loader : entry.action;
    if (!handler) return undefined;
    if (method !== "HEAD") return handler;
    return async (args) => {
      const response = await handler(args);
      return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  };
}

/** '/api/x.php' for a route at a fixed address under layouts without paths of their own; null otherwise. */
function fullPath(build: ServerBuild, route: Route): string | null {
  const parts: string[] = [];
  for (let r: Route | undefined = route; r; r = r.parentId ? build.routes[r.parentId] : undefined) {
    if (r.index && r !== route) return null;
    if (r.path) parts.unshift(r.path);
  }
  const path = "/" + parts.join("/").replace(/^\/+|\/+$/g, "");
  return /[:*?]/.test(path) || path === "/" ? null : path;
}
