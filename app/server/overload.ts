import type { IncomingMessage, ServerResponse } from "node:http";
import { loopBusy, requestEnded, requestStarted, requestsUnderWay, retryAfterSeconds } from "~/lib/server/loop-watch.server";

/**
 * While the event loop is lagging (app/lib/server/loop-watch.server.ts), new expensive work is
 * refused before it starts, with 503, Retry-After and a sentence, its body never read: page
 * renders (a GET that was not answered from the page cache) and any body of 256 kB or more (a
 * badge file to verify, an order carrying a portrait). Cached pages and static files are
 * answered before this point and keep flowing, and so do the pictures of a page already sent
 * (a badge's thumbnail, a poster): the visitor has paid for that page's data, and a browser
 * does not ask again for a picture refused, so shedding one leaves a broken image, not a wait.
 * They still wait their turn with the pages (`inTurns`), so a client that only claims to want a
 * picture gains a place in that line, not unbounded work. Small posts go on, forms and JSON API
 * alike: they are what visitors came to do (subscribe, order, join), each is short and limited
 * per address already, and one refused is sent again at once; M-Pesa's callbacks are among them
 * (a refused validation turns the payer's money back). Nothing refused was saved, so the sentence
 * says so: sending again is safe.
 */
export const BUSY_TEXT = "The site is very busy for a moment, so nothing you sent was saved. Please try again in a few seconds.";

/** A body this large is an upload, whichever address it is sent to (upload-guard's LARGE_BODY_BYTES). */
const LARGE_BODY_BYTES = 256 * 1024;

/**
 * A part of a page already sent, fetched by the browser for it: a picture, by `Sec-Fetch-Dest`
 * where the browser sends it, else by an `Accept` that asks for images first (every browser's
 * image request does; a page's navigation asks for text/html).
 */
export const isPagePart = (headers: { "sec-fetch-dest"?: string | string[]; accept?: string | string[] }) => {
  const dest = String(headers["sec-fetch-dest"] ?? "");
  if (dest) return dest === "image";
  return /^\s*image\//i.test(String(headers.accept ?? ""));
};

/** Whether this request is work the server puts off while busy (see above). */
export const isSheddable = (method: string, pathname: string, declaredBytes: number, pagePart = false) =>
  declaredBytes >= LARGE_BODY_BYTES || ((method === "GET" || method === "HEAD") && !pathname.startsWith("/api/") && !pagePart);

/** The busy answer's body and type: JSON for the API, a small page for browsers, else text. */
function busyAnswer(pathname: string, accept: string): { body: string; type: string } {
  if (pathname.startsWith("/api/")) return { body: JSON.stringify({ ok: false, error: BUSY_TEXT }), type: "application/json; charset=utf-8" };
  if (!/\btext\/html\b/.test(accept)) return { body: BUSY_TEXT, type: "text/plain; charset=utf-8" };
  return {
    body: `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Busy for a moment</title><p style="font:1.1rem/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem">${BUSY_TEXT}</p></html>`,
    type: "text/html; charset=utf-8",
  };
}

/**
 * Requests the router is working on. A lagging loop with one or two of them is one heavy
 * request (a badge preview drawn, a poster after it): refusing the next helps no one. With
 * this many, work is piling up, and what is put off lets the rest through.
 */
export const SHED_FROM_ACTIVE = 3;

/** Answers 503 and returns true when the site is busy and this is work it puts off; otherwise does nothing. */
export function shedIfBusy(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  if (!loopBusy() || requestsUnderWay() < SHED_FROM_ACTIVE) return false;
  const declared = Number(req.headers["content-length"] ?? 0);
  if (!isSheddable(req.method ?? "GET", url.pathname, Number.isFinite(declared) ? declared : 0, isPagePart(req.headers))) return false;
  const headers: Record<string, string> = { "Retry-After": String(retryAfterSeconds()), "Cache-Control": "no-store" };
  // A body is not read: its connection closes after the answer. A GET's stays open.
  if (declared > 0 || req.headers["transfer-encoding"]) headers.Connection = "close";
  const { body, type } = busyAnswer(url.pathname, String(req.headers.accept ?? ""));
  res.writeHead(503, { ...headers, "Content-Type": type, "Content-Length": String(Buffer.byteLength(body)) });
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}

/**
 * Turns for drawing pages. A page render holds the event loop while it runs, so a crawler
 * asking for 50 uncached pages at once would hold every visitor's cached page behind 50
 * renders. Pages asked for with GET are drawn `PAGES_AT_ONCE` at a time; the others wait their
 * turn (holding nothing but their connection), up to `TURN_WAIT_MS`, and at most
 * `WAITING_PAGES` of them, else they are answered 503 'busy'. A cached page or a static file
 * never waits (they are answered before the router), nor does a form post, an upload (they
 * have their own limits) or the JSON API. The turn ends when the page is drawn, not when a
 * slow phone has downloaded it.
 */
export const PAGES_AT_ONCE = 2;
export const WAITING_PAGES = 128;
export const TURN_WAIT_MS = 10_000;

export class Turns {
  private running = 0;
  private queue: { go: (granted: boolean) => void }[] = [];
  constructor(
    private readonly atOnce: number,
    private readonly maxWaiting: number,
    private readonly maxWaitMs: number,
  ) {}

  /** A turn (call the answer to end it), or null when there is none to be had. */
  async take(signal?: AbortSignal): Promise<(() => void) | null> {
    if (this.running < this.atOnce) {
      this.running += 1;
      return this.ender();
    }
    if (this.queue.length >= this.maxWaiting || signal?.aborted) return null;
    const granted = await new Promise<boolean>((resolve) => {
      const waiter = {
        go: (granted: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", giveUp);
          resolve(granted);
        },
      };
      const giveUp = () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        waiter.go(false);
      };
      const timer = setTimeout(giveUp, this.maxWaitMs);
      signal?.addEventListener("abort", giveUp, { once: true });
      this.queue.push(waiter);
    });
    return granted ? this.ender() : null;
  }

  get waiting() {
    return this.queue.length;
  }

  private ender() {
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const next = this.queue.shift();
      // The turn passes straight to the next in line; otherwise it is free.
      if (next) next.go(true);
      else this.running -= 1;
    };
  }
}

const pageTurns = new Turns(PAGES_AT_ONCE, WAITING_PAGES, TURN_WAIT_MS);

/** Runs `work` counted as a request under way (shedding and the mail worker's pace read the count). */
export async function asWork<T>(work: () => Promise<T>): Promise<T> {
  requestStarted();
  try {
    return await work();
  } finally {
    requestEnded();
  }
}

/** React Router's handler, drawing pages asked for with GET in turns (see `Turns`), its work counted. */
export function inTurns<C>(handler: (request: Request, context: C) => Promise<Response>) {
  const counted = (request: Request, context: C) => asWork(() => handler(request, context));
  return async (request: Request, context: C): Promise<Response> => {
    const url = new URL(request.url);
    if ((request.method !== "GET" && request.method !== "HEAD") || url.pathname.startsWith("/api/")) return counted(request, context);
    requestStarted();
    let end: (() => void) | null;
    try {
      end = await pageTurns.take(request.signal);
    } finally {
      requestEnded();
    }
    if (!end) {
      const { body, type } = busyAnswer(url.pathname, request.headers.get("accept") ?? "");
      return new Response(request.method === "HEAD" ? null : body, {
        status: 503,
        headers: { "Content-Type": type, "Retry-After": "5", "Cache-Control": "no-store" },
      });
    }
    try {
      return await counted(request, context);
    } finally {
      end();
    }
  };
}

/** For tests: work the router has under way. */
export const activeWork = requestsUnderWay;
