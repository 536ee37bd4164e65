import crypto from "node:crypto";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { capturePageView, documentViewOf } from "~/server/page-views.server";
import { cachedDocument, cachePolicyFor, inlineScriptHashes, pageCacheKey, storePage } from "~/lib/http/page-cache.server";
import { knownSearch, type PersonalPart } from "~/lib/core/page-cache";
import { prepareForFirstPaint } from "~/lib/http/first-paint.server";
import { contentSecurityPolicy, routeCspSources } from "~/lib/server/security-headers.server";
import { hydrates } from "~/lib/core/hydration";

export const streamTimeout = 5_000;

/** The built client files (build/client), beside this server bundle (build/server). */
const CLIENT_DIR = fileURLToPath(new URL("../client/", import.meta.url));

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = crypto.randomBytes(16).toString("base64");
  if (import.meta.env.PROD) {
    // A page sent without scripts (app/lib/core/hydration.ts) may run none: script-src 'none'.
    const inline = scriptless(routerContext) ? null : { nonce };
    responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(inline, routeCspSources(routerContext)));
  }
  // Pages may carry a visitor's bag, session or form result: never stored by shared caches.
  // A route may ask for stricter (the staff layout's no-store).
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
  // Every page differs with Lite mode (app/lib/core/data-saver.ts), chosen by either header.
  responseHeaders.append("Vary", "Save-Data, Cookie");
  capturePageView(request, responseStatusCode, responseHeaders, routerContext);

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  if (request.method === "GET" && responseStatusCode === 200) {
    const policy = cachePolicyFor(routerContext, request.headers);
    if (policy.seconds > 0) return renderCached(request, responseHeaders, routerContext, policy);
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

/**
 * Renders a page that is the same for every visitor to one string and keeps it (app/lib/
 * page-cache.server.ts): no nonce, its inline scripts allowed by their hashes instead, so the
 * server can send the same bytes to the next visitors without React Router (app/server/server.ts).
 */
async function renderCached(
  request: Request,
  headers: Headers,
  routerContext: EntryContext,
  policy: { seconds: number; personalBy: readonly PersonalPart[]; query?: readonly string[] },
) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  const url = new URL(request.url);
  const query = policy.query ?? [];
  const key = pageCacheKey(request.headers, url, query);
  const hit = cachedDocument(key, request.headers);
  if (hit) {
    for (const [name, value] of hit.headers) if (name.toLowerCase() === "content-security-policy") headers.set(name, value);
    headers.set("X-Page-Cache", "hit");
    return new Response(new Uint8Array(hit.body), { status: 200, headers });
  }
  // Drawn as its address without the parameters the page does not read (they are not in its
  // key): the bytes every visitor of this key gets must not carry one visitor's `?fbclid=`.
  // ServerRouter draws the location of the context it is given (not its `url`), so it is given
  // a copy of React Router's context at that location; React Router's own is left as it was.
  const search = knownSearch(url.searchParams, query);
  const pageContext = atSearch(routerContext, search);
  const pageUrl = new URL(url.pathname + search, url).href;
  let html = await new Promise<string>((resolve, reject) => {
    let failed = false;
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (c: Buffer) => chunks.push(c));
    sink.on("end", () => (failed ? reject(new Error("render failed")) : resolve(Buffer.concat(chunks).toString("utf8"))));
    const { pipe } = renderToPipeableStream(<ServerRouter context={pageContext} url={pageUrl} />, {
      onAllReady: () => pipe(sink),
      onShellError: reject,
      onError(error: unknown) {
        failed = true;
        console.error(error);
      },
    });
  });
  if (import.meta.env.PROD) {
    html = prepareForFirstPaint(html, CLIENT_DIR);
    const inline = scriptless(routerContext) ? null : { hashes: inlineScriptHashes(html) };
    headers.set("Content-Security-Policy", contentSecurityPolicy(inline, routeCspSources(routerContext)));
  }
  storePage(key, { html, headers, view: documentViewOf(routerContext, url), seconds: policy.seconds, personalBy: policy.personalBy, query });
  headers.set("X-Page-Cache", "miss");
  return new Response(html, { status: 200, headers });
}

/** The router's context for the same page at another query string (a copy: React Router's own is not changed). */
const atSearch = (context: EntryContext, search: string): EntryContext => ({
  ...context,
  staticHandlerContext: { ...context.staticHandlerContext, location: { ...context.staticHandlerContext.location, search } },
});

const scriptless = (context: EntryContext) => !hydrates(context.staticHandlerContext.matches.map((m) => m.route));

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  console.error(error);
};
