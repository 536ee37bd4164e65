import type { IncomingMessage, ServerResponse } from "node:http";
import { loopBusy, retryAfterSeconds } from "~/lib/loop-watch.server";

/**
 * While the event loop is lagging (app/lib/loop-watch.server.ts), new expensive work is
 * refused before it starts, with 503, Retry-After and a sentence, its body never read: page
 * renders (a GET that was not answered from the page cache), form posts and uploads to pages,
 * and any body of 256 kB or more (an order carrying a portrait). Cached pages and static files
 * are answered before this point and keep flowing. Small JSON API calls go on: M-Pesa's
 * callbacks (a refused validation turns the payer's money back), door check-ins, orders sent by
 * the legacy clients; they are short, and refusing them costs more than it saves. Nothing
 * refused was saved, so the sentence says so: sending again is safe.
 */
export const BUSY_TEXT = "The site is very busy for a moment, so nothing you sent was saved. Please try again in a few seconds.";

/** A body this large is an upload, whichever address it is sent to (upload-guard's LARGE_BODY_BYTES). */
const LARGE_BODY_BYTES = 256 * 1024;

/** Whether this request is work the server puts off while busy (see above). */
export const isSheddable = (pathname: string, declaredBytes: number) => declaredBytes >= LARGE_BODY_BYTES || !pathname.startsWith("/api/");

/** Answers 503 and returns true when the site is busy and this is work it puts off; otherwise does nothing. */
export function shedIfBusy(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  if (!loopBusy()) return false;
  const declared = Number(req.headers["content-length"] ?? 0);
  if (!isSheddable(url.pathname, Number.isFinite(declared) ? declared : 0)) return false;
  const headers = {
    "Retry-After": String(retryAfterSeconds()),
    "Cache-Control": "no-store",
    // The request's body, if any, is not read: the connection closes after the answer.
    Connection: "close",
  };
  const api = url.pathname.startsWith("/api/");
  const html = !api && /\btext\/html\b/.test(String(req.headers.accept ?? ""));
  const body = api
    ? JSON.stringify({ ok: false, error: BUSY_TEXT })
    : html
      ? `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Busy for a moment</title><p style="font:1.1rem/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem">${BUSY_TEXT}</p></html>`
      : BUSY_TEXT;
  res.writeHead(503, {
    ...headers,
    "Content-Type": api ? "application/json; charset=utf-8" : html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
  });
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
