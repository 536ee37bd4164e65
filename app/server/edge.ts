import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * The server's edge: turning a raw node:http request into a fetch Request and a fetch Response
 * back into bytes, without ever trusting the request line or the Host header. Nothing here may
 * throw out of a request: a request that cannot be read is answered 400 and the process goes on.
 */

/** Longest request target accepted (path and query); Node's 16 KB header cap sits above it. */
export const MAX_TARGET_LENGTH = 4096;

/**
 * The request target when it is a plain origin-form path ("/x?y"), else null. Absolute-form
 * ("http://host/x"), asterisk-form ("*"), authority-form, a path starting "//" (which URL
 * parsing reads as a host) and anything too long or with control characters are refused.
 */
export function originFormTarget(raw: string | undefined): string | null {
  if (!raw || raw.length > MAX_TARGET_LENGTH) return null;
  if (raw[0] !== "/" || raw[1] === "/" || raw[1] === "\\") return null;
  // Control characters, spaces and backslashes never belong in a target browsers send.
  if (/[\u0000-\u0020\u007f\\]/.test(raw)) return null;
  // Percent-escapes in the path must decode ("/%", "/%zz" and overlong UTF-8 never do).
  const q = raw.indexOf("?");
  try {
    decodeURIComponent(q >= 0 ? raw.slice(0, q) : raw);
  } catch {
    return null;
  }
  return raw;
}

/**
 * The URL the app sees: PUBLIC_URL's origin with the request's path and query, never the Host
 * header's. Null when the target is not one this site serves.
 */
export function requestUrl(rawTarget: string | undefined, publicOrigin: string): URL | null {
  const target = originFormTarget(rawTarget);
  if (!target) return null;
  try {
    const url = new URL(target, publicOrigin);
    // The path must stay a path on this origin (URL parsing may not move it elsewhere).
    return url.origin === publicOrigin ? url : null;
  } catch {
    return null;
  }
}

/** Request headers as fetch Headers; a header fetch refuses is dropped, never thrown. */
export function headersOf(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    try {
      headers.append(rawHeaders[i]!, rawHeaders[i + 1]!);
    } catch {
      // An invalid name or value: the app never sees it.
    }
  }
  return headers;
}

/**
 * The request body as a web stream that reads only when the app reads: bytes nobody asked for
 * stay in the socket (and are discarded when the answer closes the connection), so a refused
 * upload never sits in memory. A body cut off mid-way ends the stream with an error.
 */
export function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let ended = false;
  let failure: Error | null = null;
  req.once("end", () => (ended = true));
  req.once("error", (e) => (failure = e));
  req.once("aborted", () => (failure ??= new Error("The request was aborted.")));
  /** Resolves when there may be something new to read (data, the end, an error, a close). */
  const change = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        for (const ev of ["readable", "end", "error", "close", "aborted"]) req.off(ev, done);
        resolve();
      };
      for (const ev of ["readable", "end", "error", "close", "aborted"]) req.once(ev, done);
    });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          if (failure) return controller.error(failure);
          const chunk: Buffer | null = req.read();
          if (chunk) return controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if (ended || req.readableEnded) return controller.close();
          if (req.destroyed) return controller.error(new Error("The request body was cut off."));
          await change();
        }
      },
      cancel() {
        // The app stopped reading: what is left is dropped, not buffered.
        req.resume();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A fetch Request whose `signal` belongs to the server: it is made the first time something reads
 * it (React Router does; most JSON calls never do), and aborted by `abandon()` when the visitor
 * leaves before the answer is sent.
 *
 * Not undici's own `signal` init: given one, every Request ties it to an AbortController of its
 * own with a listener, a WeakRef and a FinalizationRegistry entry, and that entry keeps the
 * signal, its listener and the closures behind it alive until a full garbage collection has found
 * the controller unused and the registry's cleanup has run. At a thousand requests a second that
 * was some 2 KB a request kept into the old generation (22,900 listeners after one callback run),
 * a heap of 300 MB between full collections and pauses of 40-100 ms: the slowest answers.
 */
export class ServerRequest extends Request {
  #controller: AbortController | undefined;
  #abandoned = false;

  override get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#abandoned) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** A copy that stops with this request (undici's own clone would follow its internal signal). */
  override clone(): Request {
    return new Request(super.clone(), { signal: this.signal });
  }

  /** The visitor left before the answer was sent: whatever listens to `signal` stops. */
  abandon() {
    this.#abandoned = true;
    this.#controller?.abort();
  }
}

/**
 * The fetch Request for a node:http request, or null when it cannot be one (answer 400).
 * `originAs`: an Origin header the server has already accepted as this site's is passed on as
 * that origin (React Router compares it with the request's URL, which is built from PUBLIC_URL).
 */
export function toFetchRequest(req: IncomingMessage, url: URL, originAs?: string): ServerRequest | null {
  const method = req.method ?? "GET";
  const headers = headersOf(req.rawHeaders);
  if (originAs && headers.has("origin")) headers.set("origin", originAs);
  const init: RequestInit & { duplex?: "half" } = { method, headers };
  if (method !== "GET" && method !== "HEAD") {
    init.body = bodyStream(req);
    init.duplex = "half";
  }
  try {
    return new ServerRequest(url, init);
  } catch {
    return null;
  }
}

/** Writes a plain-text answer (used for requests the app never sees). */
export function plainAnswer(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "close",
    ...headers,
  });
  res.end(text);
}

/**
 * Most bytes of a request body read (and dropped) after an answer given before the app read it
 * all: a client still sending would otherwise have its connection reset under it and never read
 * the answer (a 413 saying why). Beyond this the connection is closed anyway.
 */
export const DISCARD_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads what is left of a request body and drops it, up to `cap` bytes, so the connection can
 * close without a reset; resolves at its end, at the cap, or when the connection goes.
 */
export function discardRest(req: IncomingMessage, cap = DISCARD_MAX_BYTES): Promise<void> {
  return new Promise((resolve) => {
    if (req.complete || req.destroyed) return resolve();
    let seen = 0;
    const done = () => {
      req.off("data", onData);
      for (const ev of ["end", "error", "close", "aborted"]) req.off(ev, done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > cap) done();
    };
    for (const ev of ["end", "error", "close", "aborted"]) req.once(ev, done);
    // Paused reads (bodyStream) would keep the body from flowing.
    req.removeAllListeners("readable");
    req.on("data", onData);
    req.resume();
  });
}

/** Streams a fetch Response to node:http. Never throws: a broken stream ends the connection. */
export async function sendResponse(req: IncomingMessage, res: ServerResponse, response: Response) {
  try {
    const raw: string[] = [];
    for (const [key, value] of response.headers) raw.push(key, value);
    // A body the app did not read all of (a refused upload): the connection closes after the
    // answer, once the rest has been read and dropped (up to DISCARD_MAX_BYTES).
    const unread = !req.complete;
    if (unread && !response.headers.has("connection")) raw.push("Connection", "close");
    res.writeHead(response.status, raw);
    if (response.body && req.method !== "HEAD") {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (res.destroyed) break;
        if (!res.write(chunk)) {
          await new Promise<void>((resolve) => {
            const go = () => {
              res.off("drain", go);
              res.off("close", go);
              resolve();
            };
            res.on("drain", go);
            res.on("close", go);
          });
        }
      }
    }
    // Ending the answer closes the connection: with bytes still arriving, the client would get
    // a reset instead of the answer.
    if (unread && !res.destroyed) await discardRest(req);
    res.end();
  } catch (e) {
    if (!res.headersSent) {
      console.error("[http] could not send a response", e);
      plainAnswer(res, 500, "Server error. Please try again later.");
    } else {
      // Mid-stream: the only honest thing left is to cut the connection.
      res.destroy();
    }
  }
}

/**
 * Open connections per client address, with a cap: many visitors share one carrier address,
 * so the cap is generous; it exists to stop one machine from holding every socket open.
 */
export class ConnectionCounter {
  private open = new Map<string, number>();
  constructor(private perAddress: number) {}

  /** Counts the socket; false when its address is over the cap (the caller closes it). */
  admit(socket: Socket, address: string): boolean {
    const n = this.open.get(address) ?? 0;
    if (n >= this.perAddress) return false;
    this.open.set(address, n + 1);
    socket.once("close", () => {
      const left = (this.open.get(address) ?? 1) - 1;
      if (left <= 0) this.open.delete(address);
      else this.open.set(address, left);
    });
    return true;
  }

  count(address: string) {
    return this.open.get(address) ?? 0;
  }
}
