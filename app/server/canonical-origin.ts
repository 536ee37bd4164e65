import type { IncomingMessage, ServerResponse } from "node:http";
import { site } from "~/lib/core/site";

/**
 * One address for the site: PUBLIC_URL. A page opened by another host name (www., the bare
 * address, an old domain) is sent to the same path on PUBLIC_URL, so its forms post from the
 * right origin; a form posted from another origin anyway (a page kept open from before, another
 * site) is answered with a page that says nothing was saved and where to send it again, instead
 * of the router's bare 400. Checked by host name only: the port a client writes in Host varies.
 */

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The host name a request was addressed to (X-Forwarded-Host behind a trusted proxy), or null.
 * Read from the same hop as the client address (the last of X-Forwarded-For): the value the
 * proxy in front of the site added. Earlier values are whatever the client wrote.
 */
function requestedHostname(req: IncomingMessage, trustProxy: boolean): string | null {
  const forwarded = trustProxy ? req.headers["x-forwarded-host"] : undefined;
  const raw = (typeof forwarded === "string" ? forwarded.split(",").at(-1) : trustProxy ? undefined : req.headers.host)?.trim();
  if (!raw || raw.length > 255) return null;
  try {
    const url = new URL(`http://${raw}`);
    return url.username || url.password || url.pathname !== "/" || url.search || url.hash ? null : url.hostname;
  } catch {
    return null;
  }
}

/**
 * The canonical redirect's headers: never kept by a shared cache (it depends on headers a cache
 * does not key on, Host and X-Forwarded-Host).
 */
export const CANONICAL_REDIRECT_HEADERS = { "Cache-Control": "no-store" } as const;

/** The canonical URL to send a GET or HEAD to when it came by another host name, else null. */
export function canonicalLocation(req: IncomingMessage, url: URL, publicOrigin: string, trustProxy: boolean): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const hostname = requestedHostname(req, trustProxy);
  if (!hostname || hostname === new URL(publicOrigin).hostname) return null;
  // A loopback name comes from this machine: a reverse proxy here that rewrites Host, or an
  // operator's curl. Sending those to PUBLIC_URL could loop through the proxy.
  if (hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname)) return null;
  return `${publicOrigin}${url.pathname}${url.search}`;
}

/**
 * True when a POST (or other write) carries an Origin that is not this site's. With no PUBLIC_URL
 * chosen (`sameAddressCounts`), the site answers at whatever address it was opened by (a phone on
 * the same network uses the machine's address): a form is then this site's when it was sent from
 * the address it was sent to (its Origin's host and port are the request's Host).
 */
export function postedFromElsewhere(req: IncomingMessage, publicOrigin: string, sameAddressCounts = false): boolean {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return false;
  // The browser's own word: a form another site's page sent.
  if (String(req.headers["sec-fetch-site"] ?? "").trim().toLowerCase() === "cross-site") return true;
  const origin = req.headers.origin;
  // No Origin (older browsers, some form posts): the Referer, when there is one, says the page.
  const referer = req.headers.referer;
  if (typeof origin !== "string") return typeof referer === "string" && referer.trim() !== "" && notHere(originOf(referer), req, publicOrigin, sameAddressCounts);
  return notHere(origin.trim(), req, publicOrigin, sameAddressCounts);
}

function originOf(address: string): string {
  try {
    return new URL(address.trim()).origin;
  } catch {
    return "null";
  }
}

function notHere(origin: string, req: IncomingMessage, publicOrigin: string, sameAddressCounts: boolean): boolean {
  if (origin === publicOrigin) return false;
  if (!sameAddressCounts) return true;
  const host = req.headers.host;
  try {
    return !host || new URL(origin).host !== host.trim().toLowerCase();
  } catch {
    return true; // "null" and anything that is not an address
  }
}

export const OTHER_ORIGIN_MESSAGE = "This form was sent from another address than this site's, so nothing was saved.";

/** 403: the page (or, for the JSON API, the JSON) saying nothing was saved and where to send it again. */
export function answerOtherOrigin(res: ServerResponse, url: URL, publicOrigin: string) {
  const here = `${publicOrigin}${url.pathname}`;
  const sentence = `${OTHER_ORIGIN_MESSAGE} Please open ${here} and send it again.`;
  const json = url.pathname.startsWith("/api/");
  const body = json
    ? JSON.stringify({ ok: false, error: sentence })
    : `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>Please send it again · ${escapeHtml(site.name)}</title></head><body><main>` +
      `<h1>Please send it again</h1><p role="alert">${escapeHtml(OTHER_ORIGIN_MESSAGE)}</p>` +
      `<p><a href="${escapeHtml(here)}">Open ${escapeHtml(here)}</a> and send it again from there.</p>` +
      `<p><a href="${escapeHtml(publicOrigin)}/">${escapeHtml(site.name)}</a></p></main></body></html>`;
  if (res.headersSent || res.destroyed) return void res.destroy();
  res.writeHead(403, {
    "Content-Type": json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "close",
  });
  res.end(body);
}
