import { PassThrough } from "node:stream";
import { createElement, type ComponentType } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { createRequestHandler, ServerRouter, type EntryContext, type ServerBuild } from "react-router";
import config from "../../react-router.config";

/**
 * A small server build as React Router's Vite plugin writes one (the site's own `ssr` and future
 * flags, route discovery left at its default), answered by the installed React Router's
 * `createRequestHandler`: tests of code that depends on what the framework renders or how it
 * calls routes run against the framework itself, so an upgrade that changes it fails them.
 */
export type TestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  /** The route's built client file, as the manifest names it (`/assets/….js`). */
  file?: string;
  /** The route's built stylesheets, as the manifest names them. */
  css?: string[];
  module: Record<string, unknown> & { default?: ComponentType };
};

/** The document entry: the whole page to one string, as the site's cached pages are drawn. */
export type RenderDocument = (request: Request, status: number, headers: Headers, context: EntryContext, loadContext: never) => Promise<Response> | Response;

export const renderWhole: RenderDocument = (request, status, headers, context) =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (c: Buffer) => chunks.push(c));
    sink.on("end", () => {
      headers.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(Buffer.concat(chunks).toString("utf8"), { status, headers }));
    });
    const { pipe } = renderToPipeableStream(createElement(ServerRouter, { context, url: request.url }), {
      onAllReady: () => pipe(sink),
      onShellError: reject,
    });
  });

export function testBuild(routes: TestRoute[], { entry = "/assets/entry.client-C.js", entryImports = [] as string[], document = renderWhole } = {}): ServerBuild {
  const manifestRoutes: ServerBuild["assets"]["routes"] = {};
  const serverRoutes: ServerBuild["routes"] = {};
  for (const r of routes) {
    const m = r.module;
    manifestRoutes[r.id] = {
      id: r.id,
      parentId: r.parentId,
      path: r.path,
      index: r.index,
      module: r.file ?? `/assets/${r.id.replace(/\W/g, "-")}.js`,
      imports: [],
      css: r.css ?? [],
      hasAction: typeof m.action === "function",
      hasLoader: typeof m.loader === "function",
      hasClientAction: false,
      hasClientLoader: false,
      hasClientMiddleware: false,
      hasErrorBoundary: m.ErrorBoundary != null,
      clientActionModule: undefined,
      clientLoaderModule: undefined,
      clientMiddlewareModule: undefined,
      hydrateFallbackModule: undefined,
    };
    serverRoutes[r.id] = { id: r.id, parentId: r.parentId, path: r.path, index: r.index, module: m as never };
  }
  return {
    entry: { module: { default: document as ServerBuild["entry"]["module"]["default"] } },
    routes: serverRoutes,
    assets: { entry: { module: entry, imports: entryImports }, routes: manifestRoutes, url: "/assets/manifest-T.js", version: "T" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: config.future as ServerBuild["future"],
    ssr: config.ssr ?? true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as ServerBuild;
}

/** The build's answer to `request` (a path or a Request), from the installed React Router in production mode. */
export async function answer(build: ServerBuild, request: string | Request, context: Record<string, unknown> = {}): Promise<Response> {
  const handler = createRequestHandler(build, "production");
  return handler(typeof request === "string" ? new Request(`http://site.test${request}`) : request, context as never);
}
