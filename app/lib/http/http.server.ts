import { data, type AppLoadContext } from "react-router";
import { sentenceForThisRequest } from "../db/database-health.server";
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from "../core/database-unavailable";
import { DomainError, STATUS_OF_CODE } from "../core/domain-error";
import { env } from "../server/env.server";
import { HttpError } from "../core/http-error";
import { readUrlEncodedBody } from "./form-body.server";
import { readJsonBody } from "./json-body.server";

export function clientAddress(context: AppLoadContext | undefined): string {
  return context?.clientAddress || "unknown";
}

export { HttpError };

/**
 * The one place a feature's DomainError becomes an HTTP status (an HttpError passes as it
 * is); anything else is not an answer for the caller and gives null.
 */
export function httpErrorOf(e: unknown): HttpError | null {
  if (e instanceof HttpError) return e;
  if (e instanceof DomainError) return new HttpError(STATUS_OF_CODE[e.code], e.message, {}, e.field);
  // The database is away for a moment: 503, try again, in the words of the page asked.
  if (isDatabaseUnavailable(e)) return new HttpError(503, sentenceForThisRequest(), { "Retry-After": String(RETRY_AFTER_SECONDS) });
  return null;
}

/**
 * Runs `work`; a refusal (a DomainError or an HttpError) is answered by `refused`, anything
 * else is thrown on. The pipelines in lib use it; routes call those, not this.
 */
export async function onRefusal<T, U>(work: () => Promise<T>, refused: (e: HttpError) => U | Promise<U>): Promise<T | U> {
  try {
    return await work();
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) return refused(http);
    throw e;
  }
}

/**
 * In HTML routes, React Router answers any thrown Error with a 500: an HttpError must become
 * a thrown data() response to keep its 4xx status and message.
 */
export function asRouteError<T>(work: () => Promise<T>): Promise<T> {
  return onRefusal(work, (http): never => {
    throw data(http.message, { status: http.status, headers: http.headers });
  });
}

export function jsonResponse(body: unknown, init: number | ResponseInit = 200) {
  const opts: ResponseInit = typeof init === "number" ? { status: init } : init;
  const headers = new Headers(opts.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { ...opts, headers });
}

/** A plain-text answer (a missing picture, say), never cached. */
export const textResponse = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export function jsonError(status: number, error: string, headers: Record<string, string> = {}) {
  return jsonResponse({ ok: false, error }, { status, headers });
}

/** Reads the body as text, refusing more than `maxBytes` without buffering it all. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return (await readBodyBytes(request, maxBytes)).toString("utf8");
}

/** Reads the body's bytes (an uploaded file), refusing more than `maxBytes` without buffering it all. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new HttpError(413, "Request body is too large.");
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new HttpError(413, "Request body is too large.");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a JSON object body, or a form body for callers that post forms. Anything else, or
 * malformed JSON, is a 400 with a plain message.
 */
export async function readObjectBody(
  request: Request,
  maxBytes = 16 * 1024,
): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded")) {
    // Decoded as it arrives, fields counted (form-body.server.ts): a whole body at once holds the event loop.
    return readUrlEncodedBody(request, maxBytes);
  }
  // Measured as it arrives: deep nesting would hold the event loop for everyone (json-body.server.ts).
  const parsed = await readJsonBody(request, maxBytes);
  if (parsed === undefined) return {};
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new HttpError(400, "Request body must be a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

/**
 * True when a browser says the request came from another site. Requests without these
 * headers (curl, server-to-server) are not browsers and are judged by the key alone.
 */
/**
 * True when Origin names the host the browser sent this request to. Request URLs are built from
 * PUBLIC_URL, so a visitor who reached the site by another name (127.0.0.1 for localhost) is
 * judged by the Host their own browser sent, which a page on another site cannot set.
 */
function sameHost(origin: string, host: string | null): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

export function isCrossSiteBrowserRequest(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("origin");
  if (origin && origin !== "null") {
    return origin !== new URL(env().publicUrl).origin && !sameHost(origin, request.headers.get("host"));
  }
  return origin === "null";
}

/**
 * True for a form post from a page of this site: not cross-site, and saying where it came from
 * (browsers send Origin, and Sec-Fetch-Site, with every POST). For actions a cookie signs in,
 * where a request without these headers cannot be judged by a key.
 */
export function isSameSiteFormPost(request: Request): boolean {
  if (isCrossSiteBrowserRequest(request)) return false;
  const origin = request.headers.get("origin");
  return request.headers.get("sec-fetch-site") === "same-origin" || (!!origin && origin !== "null");
}

/** An absolute URL on this site, built from PUBLIC_URL, never from the Host header. */
export function absoluteUrl(pathname: string) {
  return env().publicUrl + (pathname.startsWith("/") ? pathname : `/${pathname}`);
}
