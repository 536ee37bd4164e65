import { data, type ServerBuild } from "react-router";
import { requestBeingAnswered } from "~/lib/db/database-health.server";
import { isDatabaseUnavailable, isJsonPath, RETRY_AFTER_SECONDS, unavailableSentence } from "~/lib/core/database-unavailable";

type Routes = ServerBuild["routes"];
type Module = NonNullable<Routes[string]>["module"];
type Handler = NonNullable<Module["loader"]>;

/**
 * Every route's loader and action, answering 'the database is away' as a 503 with Retry-After
 * and the page's sentence instead of React Router's 500: a page gets the root ErrorBoundary with
 * that sentence (a thrown data()), a resource route a plain or JSON answer. Routes that already
 * turn errors into answers (replyFromError, jsonApi, asRouteError, through httpErrorOf) say the
 * same; this catches the rest, so no route has to remember.
 *
 * React Router has no public hook that can change a loader's or action's failure into an answer
 * without its middleware (off here: it would change every route's `context`); `handleError` only
 * observes. So the build it is given has each handler wrapped, and
 * database-answers.server.test.ts runs that build through the installed React Router (pages,
 * forms, data requests, JSON and plain resource routes), so an upgrade that calls handlers
 * another way fails there.
 */
export function answeringDatabaseOutages(build: ServerBuild): ServerBuild {
  const routes: Routes = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const m = route.module;
    const resource = !m.default;
    routes[id] = { ...route, module: { ...m, loader: watched(m.loader, resource), action: watched(m.action, resource) } };
  }
  return { ...build, routes };
}

function watched(handler: Handler | undefined, resource: boolean): Handler | undefined {
  if (!handler) return undefined;
  return async (args) => {
    try {
      return await handler(args);
    } catch (e) {
      throw isDatabaseUnavailable(e) ? unavailableAnswer(args.request, resource) : e;
    }
  };
}

export function unavailableAnswer(request: Request, resource: boolean) {
  const pathname = new URL(request.url).pathname;
  // The request as it came (a page's loaders run after its form's action with a GET of their own).
  const asked = requestBeingAnswered() ?? { method: request.method, pathname };
  const sentence = unavailableSentence(asked.method, asked.pathname);
  const headers = { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" };
  if (!resource) return data(sentence, { status: 503, headers });
  if (isJsonPath(pathname)) {
    return new Response(JSON.stringify({ ok: false, error: sentence }), {
      status: 503,
      headers: { ...headers, "Content-Type": "application/json; charset=utf-8" },
    });
  }
  return new Response(sentence, { status: 503, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}
