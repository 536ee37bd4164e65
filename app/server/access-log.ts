import type http from "node:http";
import { logEntry } from "~/lib/server/log-line.server";

/**
 * ACCESS_LOG=on: one line per request once it is answered (or the client left): method, path,
 * status, milliseconds, bytes sent, client address. The path never carries what could be a
 * secret or personal: query values are dropped (names kept), the callback secret is written
 * [secret], and a path part holding an address (an @) is written [address].
 */
export function loggablePath(rawUrl: string, secrets: readonly string[]): string {
  const q = rawUrl.indexOf("?");
  let path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  for (const s of secrets) if (s) path = path.split(s).join("[secret]");
  path = path
    .split("/")
    .map((part) => (/@|%40/i.test(part) ? "[address]" : part))
    .join("/");
  const names = q === -1 ? [] : [...new URLSearchParams(rawUrl.slice(q + 1)).keys()];
  const query = names.map((n) => (/^[A-Za-z0-9_.[\]-]{1,40}$/.test(n) ? `${n}=…` : "…=…")).join("&");
  return (query ? `${path}?${query}` : path).slice(0, 400);
}

function clientOf(req: http.IncomingMessage, trustProxy: boolean) {
  if (trustProxy) {
    const hops = String(req.headers["x-forwarded-for"] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
    const last = hops[hops.length - 1];
    if (last && last.length <= 64) return last;
  }
  return (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
}

export function logAccess(req: http.IncomingMessage, res: http.ServerResponse, opts: { trustProxy: boolean; secrets: () => readonly string[] }) {
  const started = performance.now();
  const socket = req.socket;
  const before = socket.bytesWritten;
  let done = false;
  const write = () => {
    if (done) return;
    done = true;
    const fields = {
      method: String(req.method ?? "").slice(0, 16),
      path: loggablePath(req.url ?? "", opts.secrets()),
      status: res.writableFinished ? res.statusCode : 499,
      ms: Math.round(performance.now() - started),
      bytes: Math.max(0, socket.bytesWritten - before),
      client: clientOf(req, opts.trustProxy),
    };
    logEntry("info", "access", `${fields.method} ${fields.path} ${fields.status} ${fields.ms}ms ${fields.bytes}B ${fields.client}`, fields);
  };
  res.once("finish", write);
  res.once("close", write);
}
