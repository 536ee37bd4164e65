import crypto from "node:crypto";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { capturePageView, pageViewOf } from "~/server/page-views.server";
import { cachedPage, cacheSecondsFor, pageCacheKey, storePage } from "~/lib/page-cache.server";
import { contentSecurityPolicy, routeCspSources } from "~/lib/security-headers.server";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = crypto.randomBytes(16).toString("base64");
  if (import.meta.env.PROD) {
    responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, routeCspSources(routerContext)));
  }
  // Pages may carry a visitor's bag, session or form result: never stored by shared caches.
  // A route may ask for stricter (the staff layout's no-store).
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
  // Every page differs with Lite mode (app/lib/data-saver.ts), chosen by either header.
  responseHeaders.append("Vary", "Save-Data, Cookie");
  capturePageView(request, responseStatusCode, responseHeaders, routerContext);

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  const cacheSeconds =
    request.method === "GET" && responseStatusCode === 200 ? cacheSecondsFor(routerContext) : 0;
  if (cacheSeconds > 0) return renderCached(request, responseHeaders, routerContext, nonce, cacheSeconds);

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

/** Renders a whole page to one string (kept for `cacheSeconds`) instead of streaming it. */
async function renderCached(
  request: Request,
  headers: Headers,
  routerContext: EntryContext,
  nonce: string,
  cacheSeconds: number,
) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  const url = new URL(request.url);
  const key = pageCacheKey(request.headers, url);
  const hit = cachedPage(key, nonce);
  if (hit !== undefined) return new Response(hit, { status: 200, headers });
  const html = await new Promise<string>((resolve, reject) => {
    let failed = false;
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (c: Buffer) => chunks.push(c));
    sink.on("end", () => (failed ? reject(new Error("render failed")) : resolve(Buffer.concat(chunks).toString("utf8"))));
    const { pipe } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        onAllReady: () => pipe(sink),
        onShellError: reject,
        onError(error: unknown) {
          failed = true;
          console.error(error);
        },
      },
    );
  });
  // With its headers (no Set-Cookie) and its page view, so the server can answer the next
  // request for it without React Router (app/server/server.ts). A page that also counts a post
  // view is answered the long way.
  const view = pageViewOf(routerContext, url);
  storePage(key, html, nonce, cacheSeconds, view.blogView ? undefined : { headers: [...headers], page: view.page, path: view.path });
  return new Response(html, { status: 200, headers });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  console.error(error);
};
