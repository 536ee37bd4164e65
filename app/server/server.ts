import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import compression from "compression";
import { createRequestHandler } from "react-router";
import sirv from "sirv";
import * as build from "virtual:react-router/server-build";
import { bufferedEvents, flushAnalytics } from "~/features/analytics/analytics.server";
import { startAnalyticsRollup, stopAnalyticsRollup } from "~/features/analytics/rollup.server";
import { warmKit } from "~/features/event-badges/kit.server";
import { startEventReminders, stopEventReminders } from "~/features/event-badges/reminders.server";
import { startAutoApprove, stopAutoApprove } from "~/features/reconciliation/auto-approve.server";
import { startStkQueries, stopStkQueries } from "~/features/reconciliation/stk-queries.server";
import { startNotifyWorker, stopNotifyWorker } from "~/features/blog/blog.server";
import { afterBackup, listBackups, restoreBackup, startBackups, stopBackups, takeBackup } from "~/lib/db/backup.server";
import { closeDb, getDb, isPostgresUrl, openDatabase, siteDb } from "~/lib/db/db.server";
import { answerScope, noteDatabaseError, whenDatabaseUp } from "~/lib/db/database-health.server";
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from "~/lib/core/database-unavailable";
import { copySqliteToPostgres } from "~/lib/db/copy-database.server";
import { startSharedState, stopSharedState } from "~/lib/db/shared-state.server";
import { startRetention, stopRetention } from "~/features/people/retention.server";
import { requireSharedSecrets } from "~/lib/db/secrets.server";
import { drainOutbox, startMailWorker, stopMailWorker } from "~/lib/mail/email.server";
import { ConfigError, env } from "~/lib/server/env.server";
import { tightenDataDir } from "~/lib/server/files.server";
import { adminKeyInfo } from "~/lib/db/secrets.server";
import { baseSecurityHeaders } from "~/lib/server/security-headers.server";
import { cachedPageFor } from "~/lib/http/page-cache.server";
import { startLoopWatch } from "~/lib/server/loop-watch.server";
import { inTurns, shedIfBusy } from "./overload";
import { countDocumentView } from "./page-views.server";
import { runSeeds } from "../../db/seed";
import { ConnectionCounter, plainAnswer, requestUrl, sendResponse, toFetchRequest } from "./edge";
import { answeringDatabaseOutages } from "./database-answers.server";
import { answerHealth } from "./health.server";
import { answerOtherOrigin, CANONICAL_REDIRECT_HEADERS, canonicalLocation, postedFromElsewhere } from "./canonical-origin";
import { keepLogLinesWhole, setLogSecrets } from "~/lib/server/log-line.server";
import { publicUrlRefusal } from "~/lib/server/public-url.server";
import { logAccess } from "./access-log";
import { answerMetrics, countRequest, startMetrics } from "./metrics.server";
import { clientAddressOf, fromTrustedProxy, httpsLocation, trustedProxies } from "../lib/server/trusted-proxy";
import { settingsNotes } from "./settings-notes";
import { limitImageMemory } from "./memory.server";
import { cutSlowBodies } from "./slow-body";

/** Slow phones: headers are small and must arrive quickly; a 6 MB upload at ~160 kbit/s still fits. */
export const HEADERS_TIMEOUT_MS = 30_000;
export const REQUEST_TIMEOUT_MS = 300_000;
/** A connection with nothing moving either way for this long is closed. */
export const IDLE_TIMEOUT_MS = 60_000;
/** Idle keep-alive connections are closed soon, so a hall of phones on one address does not pile them up. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** On SIGTERM, how long the requests under way may take to finish before their connections are closed. */
export const DRAIN_MS = 10_000;
/** Longest the site waits for the badge renderer's warm-up before it starts serving anyway. */
export const WARM_UP_MAX_MS = 30_000;

function announceAdminKey() {
  const info = adminKeyInfo();
  if (info.source === "env") {
    console.log("[admin] using the admin key from ADMIN_KEY.");
    return;
  }
  const inDb = info.file.startsWith("the database");
  // Printed once, when made: the journal of every later start does not hold the key.
  if (!info.created) {
    console.log(`[admin] using the admin key stored in ${info.file} (printed only when it was made; read it there, or set ADMIN_KEY).`);
    return;
  }
  // Three entries: the log keeps each entry on one line (lib/log-line.server.ts), a line break included.
  console.log(`[admin] generated a new admin key stored in ${info.file}${inDb ? "" : " (mode 0600)"}:`);
  console.log(`[admin]   ${info.value}`);
  console.log(`[admin] To choose your own, set ADMIN_KEY (16+ characters)${inDb ? "" : " or replace that file"} and restart.`);
}

/**
 * The fast path for pages that are the same for every visitor: once React Router has rendered
 * one (app/entry.server.tsx keeps it, app/lib/http/page-cache.server.ts), the next GET for the same
 * address is answered here from memory, before compression, static files or the router: the
 * stored bytes (brotli or gzip made once, by what the request accepts), a 304 when the browser
 * already has them, and the page view counted (with the client-id cookie on a first visit) as the
 * long way does. Requests personal to the page (a bag, a client id on a post, a staff session)
 * and Lite mode's different bytes are told apart by the cache. Staff changes forget pages
 * (clearPageCache), so the next request takes the long way and stores the new page.
 */
function answerFromPageCache(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean {
  const headers = new Headers();
  for (const name of ["cookie", "save-data", "user-agent", "referer", "x-client-id"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  const hit = cachedPageFor(url, headers);
  if (!hit) return false;
  res.setHeader("X-Page-Cache", "hit");
  const counted = countDocumentView(headers, hit.view, url);
  for (const [name, value] of hit.headers) res.setHeader(name, value);
  res.setHeader("ETag", hit.etag);
  if (counted?.setCookie) res.setHeader("Set-Cookie", counted.setCookie);
  const known = req.headers["if-none-match"];
  if (typeof known === "string" && known.split(/\s*,\s*/).some((t) => t === hit.etag || `W/${t}` === hit.etag)) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  const accepts = typeof req.headers["accept-encoding"] === "string" ? req.headers["accept-encoding"] : "";
  const [body, encoding] =
    hit.br && /\bbr\b/.test(accepts) ? [hit.br, "br"] : hit.gzip && /\bgzip\b/.test(accepts) ? [hit.gzip, "gzip"] : [hit.body, undefined];
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.statusCode = 200;
  res.end(body);
  return true;
}

export async function startServer() {
  keepLogLinesWhole();
  limitImageMemory();
  let config;
  try {
    config = env();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  setLogSecrets([config.mpesaCallbackSecret, config.metricsToken, config.adminKey]);
  const refusal = publicUrlRefusal(config);
  if (refusal) {
    console.error(`[start] ${refusal}`);
    process.exit(1);
  }
  // Data files are this user's alone: new folders 0700, new files 0600 (database, outbox, images).
  process.umask(0o077);
  tightenDataDir(config.dataDir, [
    config.databasePath,
    `${config.databasePath}-wal`,
    `${config.databasePath}-shm`,
  ]);
  // The database is opened, then migrated and seeded before serving when it answers. When it
  // does not (PostgreSQL restarting, SQLite locked by another program), the process serves
  // anyway: pages that need no database, cached pages, and a 503 for the rest, and prepares
  // in the background as soon as the database answers (app/lib/db/database-health.server.ts).
  if (config.databaseUrl) requireSharedSecrets();
  const db = siteDb();
  let ready = false;
  const whenReady: (() => void)[] = [];
  const prepare = async () => {
    await getDb();
    await runSeeds(db);
    // PostgreSQL: secrets, limits, the visitor salt and change messages shared by every process.
    try {
      await startSharedState(db);
    } catch (e) {
      await stopSharedState();
      throw e;
    }
    tightenDataDir(config.dataDir, [`${config.databasePath}-wal`, `${config.databasePath}-shm`]);
    announceAdminKey();
    await startMailWorker();
    // Blog notify runs left unfinished (a crash, or another process that stopped) are finished.
    void startNotifyWorker();
    ready = true;
    for (const run of whenReady.splice(0)) run();
  };
  try {
    await prepare();
  } catch (e) {
    // Anything but 'the database is away' is a real fault: the start fails, as it always did.
    if (!isDatabaseUnavailable(e)) throw e;
    noteDatabaseError(e);
  }
  const keepPreparing = async () => {
    for (let wait = 1000; !ready && !closing; wait = Math.min(wait * 2, 30_000)) {
      await whenDatabaseUp();
      await new Promise((r) => setTimeout(r, 250));
      if (closing) return;
      try {
        await prepare();
        console.log("[db] database ready: migrations and seeds done, serving everything");
      } catch (e) {
        if (!isDatabaseUnavailable(e)) console.error(`[db] preparing the database failed (trying again in ${wait / 1000} s)`, e);
        else noteDatabaseError(e);
        await new Promise((r) => setTimeout(r, isDatabaseUnavailable(e) ? 500 : wait));
      }
    }
  };
  /** Runs `start` now if the database is prepared, else once it is. */
  const onceReady = (start: () => void) => (ready ? start() : whenReady.push(start));
  let closing = false;
  let draining = false;

  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
  const statics = sirv(clientDir, {
    etag: true,
    // The build writes .br and .gz beside each script, stylesheet and SVG (vite.config.ts).
    brotli: true,
    gzip: true,
    setHeaders(res, pathname) {
      res.setHeader(
        "Cache-Control",
        pathname.startsWith("/assets/")
          ? "public, max-age=31536000, immutable"
          : "public, max-age=3600",
      );
    },
  });
  startMetrics(build, () => db);
  const compress = compression({ threshold: 1024 });
  const security = baseSecurityHeaders(config.publicUrl.startsWith("https://"));
  // Pages are drawn a few at a time; the rest wait their turn (overload.ts). A database that is
  // away turns every loader and action's failure into a 503 with its sentence.
  const handleRequest = inTurns(createRequestHandler(answeringDatabaseOutages(build), "production"));
  const origin = new URL(config.publicUrl).origin;
  // Only a PUBLIC_URL someone chose is 'the' address: with none set (http://localhost:PORT), a
  // phone on the same network opening the machine's address is served, not sent to localhost.
  const canonicalRedirects = !!process.env.PUBLIC_URL?.trim();
  // Forwarded headers are read only on connections from TRUST_PROXY's addresses (trusted-proxy.ts).
  const proxies = trustedProxies(config.trustedProxies);

  /** The app's part: a fetch Request built from PUBLIC_URL, React Router, and the answer streamed back. */
  const app = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    // With no PUBLIC_URL chosen, a form sent from the address the site was opened at passed the
    // origin check (canonical-origin.ts); React Router is told it came from the site's origin.
    const request = toFetchRequest(req, url, canonicalRedirects ? undefined : origin);
    if (!request) return plainAnswer(res, 400, "Bad request.");
    // A visitor who left mid-answer stops the work (a page being drawn, a turn waited for). An
    // answer sent in full needs no abort: each one dispatched an event and built an error.
    res.on("close", () => {
      if (!res.writableFinished) request.abandon();
    });
    let response: Response;
    try {
      const context = { clientAddress: clientAddressOf(request.headers.get("x-forwarded-for"), req.socket.remoteAddress, proxies), db };
      response = await answerScope({ method: request.method, pathname: url.pathname }, () => handleRequest(request, context));
    } catch (e) {
      const away = isDatabaseUnavailable(e);
      if (!away) console.error(`[http] ${req.method} ${url.pathname} failed`, e);
      response = new Response(away ? "This page cannot be shown for a moment. Please try again in a minute." : "Server error. Please try again later.", {
        status: away ? 503 : 500,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    // 'Try again': every 503 says when (the database's, the order reference generator's …).
    if (response.status === 503 && !response.headers.has("Retry-After")) {
      response = new Response(response.body, { status: 503, statusText: response.statusText, headers: response.headers });
      response.headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
    }
    // A request that began before SIGTERM: its answer is the connection's last.
    if (draining) res.setHeader("Connection", "close");
    await sendResponse(req, res, response);
  };

  /** Connections answered 'too many connections': Node still parses what they send, and it must not be served. */
  const refused = new WeakSet<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    if (refused.has(req.socket)) {
      // Already told 503 'try again': an order sent on it must not be stored behind that answer.
      req.socket.destroy();
      return;
    }
    if (config.accessLog) logAccess(req, res, { trustProxy: config.trustProxy, secrets: () => [config.mpesaCallbackSecret ?? "", config.metricsToken ?? ""] });
    // A body that trickles in is cut with 408 (slow-body.ts).
    cutSlowBodies(req, res);
    try {
      for (const [k, v] of Object.entries(security)) res.setHeader(k, v);
      // Draining before exit: this answer is the connection's last.
      if (draining) res.setHeader("Connection", "close");
      // The target is checked before anything reads it: "//x", "http://host/x", "*" and
      // malformed paths are a 400 here, and the Host header is never used to build a URL.
      const url = requestUrl(req.url, origin);
      if (!url) return plainAnswer(res, 400, "Bad request.");
      countRequest(req, res, url);
      if (answerHealth(req, res, url, { draining: () => draining, db: () => db })) return;
      if (answerMetrics(req, res, url, { token: config.metricsToken, workers: config.workers })) return;
      // One address for the site: pages opened by another host name go to PUBLIC_URL, and a form
      // posted from another origin is told nothing was saved (canonical-origin.ts).
      const viaProxy = fromTrustedProxy(req.socket.remoteAddress, proxies);
      // A visitor the proxy let in over plain http goes to https (PUBLIC_URL's scheme).
      const secure = canonicalRedirects ? httpsLocation(req.method, req.headers["x-forwarded-proto"], viaProxy, url, origin) : null;
      if (secure) return plainAnswer(res, 301, `This page is at ${secure}\n`, { Location: secure });
      const canonical = canonicalRedirects ? canonicalLocation(req, url, origin, viaProxy) : null;
      if (canonical) return plainAnswer(res, 301, `This page is at ${canonical}\n`, { Location: canonical, ...CANONICAL_REDIRECT_HEADERS });
      if (postedFromElsewhere(req, origin, !canonicalRedirects)) return answerOtherOrigin(res, url, origin);
      if (req.method === "GET" && answerFromPageCache(req, res, url)) return;
      // @ts-expect-error compression's types expect Express objects; it works on node:http.
      compress(req, res, () => {
        try {
          statics(req, res, () => {
            // While the event loop lags, new work for the router is put off (503): see overload.ts.
            if (shedIfBusy(req, res, url)) return;
            app(req, res, url).catch((e) => {
              console.error("[http] request failed", e);
              plainAnswer(res, 500, "Server error. Please try again later.");
            });
          });
        } catch (e) {
          console.error("[http] static file failed", e);
          plainAnswer(res, 400, "Bad request.");
        }
      });
    } catch (e) {
      console.error("[http] request failed at the edge", e);
      plainAnswer(res, 400, "Bad request.");
    }
  });
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.timeout = IDLE_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Behind a proxy every connection comes from the proxy: the proxy caps its clients instead;
  // anyone else reaching the port directly is capped like any client.
  {
    const connections = new ConnectionCounter(config.connectionsPerAddress);
    server.on("connection", (socket) => {
      const address = (socket.remoteAddress ?? "unknown").replace(/^::ffff:/, "");
      if (!fromTrustedProxy(socket.remoteAddress, proxies) && !connections.admit(socket, address)) {
        refused.add(socket);
        const text = "Too many connections from your address. Please try again in a moment.\n";
        socket.end(
          "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: text/plain; charset=utf-8\r\n" +
            `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
        );
      }
    });
  }
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    // Unparseable request lines and headers: Node's own 400/408/431, never a crash.
    if (!socket.writable || err.code === "ECONNRESET") return socket.destroy();
    const status = err.code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large" : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? "408 Request Timeout" : "400 Bad Request";
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });

  // The badge renderer's fonts and measurements are loaded before the site listens, not on the
  // first staff click: parsing them holds the event loop for about a second on a small machine,
  // and every visitor who came in meanwhile would wait (the first page behind anything else).
  // A warm-up that has not finished in WARM_UP_MAX_MS goes on while the site serves.
  const warmUp = warmKit().catch((e) => console.warn("[render] warm-up failed", e));
  await Promise.race([warmUp, new Promise((r) => setTimeout(r, WARM_UP_MAX_MS).unref())]);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  console.log(`[http] serving ${config.publicUrl} (listening on ${config.host}:${config.port}, pid ${process.pid})`);
  for (const note of settingsNotes(config, canonicalRedirects)) console.warn(note);
  if (!ready) void keepPreparing();
  // The event loop is watched from here on (the warm-up, already done, held it once and is no load).
  void warmUp.finally(startLoopWatch);
  onceReady(() => {
    // Analytics summaries and the retention roll-up: shortly after start, then every 15 minutes.
    startAnalyticsRollup(db);
    // The day-before reminders (from the event record): looked for every 10 minutes, queued once.
    startEventReminders(db);
    startAutoApprove();
    // M-Pesa Express prompts whose result callback did not come are asked about (stkpushquery).
    startStkQueries(db);
    startBackups(db);
    // Personal data past its retention period is removed, daily.
    startRetention(db);
  });

  const shutdown = async (reason: string, code = 0) => {
    if (closing) return;
    closing = true;
    draining = true;
    console.log(`[http] ${reason}: closing`);
    // No new connections; the requests under way finish (their records are written before they
    // answer) for up to DRAIN_MS, each answer closing its connection; /healthz says 503 meanwhile.
    const closed = new Promise((r) => server.close(r));
    server.closeIdleConnections();
    await Promise.race([closed, new Promise((r) => setTimeout(r, DRAIN_MS))]);
    server.closeAllConnections();
    await flushAnalytics();
    if (bufferedEvents() > 0) console.warn(`[analytics] ${bufferedEvents()} page view(s) not written: the database is unavailable`);
    await stopAnalyticsRollup();
    await stopEventReminders();
    await stopAutoApprove();
    await stopStkQueries();
    await stopBackups();
    await stopRetention();
    await Promise.race([drainOutbox(), new Promise((r) => setTimeout(r, 5000))]);
    stopMailWorker();
    await stopNotifyWorker();
    await stopSharedState();
    await closeDb();
    process.exit(code);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // Under the supervisor (app/server/start.mjs): if it is gone, so is this process.
  process.on("disconnect", () => void shutdown("supervisor gone"));
  // A rejected promise nobody awaited is logged; it leaves no state half-changed, so serving goes on.
  process.on("unhandledRejection", (e) => {
    if (!noteDatabaseError(e)) console.error("[http] unhandled rejection (still serving)", e);
  });
  // An exception thrown out of everything may have left state half-changed: stop cleanly and let
  // the supervisor start a fresh process (acknowledged writes are already on disk). A database
  // that went away is not that: its connections are replaced, and serving goes on.
  process.on("uncaughtException", (e) => {
    if (isDatabaseUnavailable(e)) {
      noteDatabaseError(e);
      return;
    }
    console.error("[http] uncaught exception: this process stops and a new one starts", e);
    void shutdown("uncaught exception", 1);
  });
  return server;
}

export { build };
export { importLegacyCommand } from "~/features/legacy-import/command.server";
/** The command-line tools print as the server logs: one line per entry, control characters escaped. */
export { keepLogLinesWhole };
export { rotateSecretsCommand } from "~/lib/db/rotate-secrets.server";

/**
 * `npm run backup [-- DIR]`: one backup now, into DIR or BACKUP_DIR, of the database at
 * DATABASE_PATH (or DATA_DIR/site.db), which a running server may be using.
 */
export async function backupCommand(args: string[]) {
  const config = env();
  const dir = args[0] ? path.resolve(args[0]) : config.backupDir;
  if (!dir) throw new Error("Say where the backup goes: set BACKUP_DIR, or run `npm run backup -- DIR`.");
  if (config.databaseUrl) throw new Error("npm run backup copies a SQLite site; on PostgreSQL use pg_dump (README, 'Running on PostgreSQL').");
  process.umask(0o077);
  const done = await takeBackup({ databasePath: config.databasePath, dataDir: config.dataDir }, dir, config.backupKeep, config.backupRecipients);
  console.log(`[backup] wrote ${done.file} (${(done.bytes / 1e6).toFixed(1)} MB, ${done.pages} database pages, ${done.ms} ms${config.backupRecipients.length ? ", encrypted" : ""})`);
  await afterBackup(config.backupCommand, done.file, dir);
  const all = listBackups(dir);
  console.log(`[backup] ${all.length} backup${all.length === 1 ? "" : "s"} in ${dir} (keeping the newest ${config.backupKeep})`);
}

/**
 * `npm run db:copy -- postgres://…`: the SQLite site (DATABASE_PATH or DATA_DIR/site.db, and
 * its files) into an empty PostgreSQL database. Stop the site first; then set DATABASE_URL.
 */
export async function copyCommand(args: string[]) {
  const url = args[0] ?? "";
  if (!isPostgresUrl(url)) throw new Error("Say where to: `npm run db:copy -- postgres://user:password@host:5432/site`.");
  const config = env();
  if (!fs.existsSync(config.databasePath)) throw new Error(`There is no SQLite database at ${config.databasePath}.`);
  const source = openDatabase(config.databasePath);
  const target = openDatabase(url, { poolSize: 2 });
  try {
    const report = await copySqliteToPostgres(source, target, config.dataDir);
    for (const t of report.tables) console.log(`[copy] ${t.name.padEnd(24)} ${String(t.rows).padStart(8)} rows (same count on both)`);
    console.log(`[copy] ${report.files} stored file(s); secrets: ${report.secrets.join(", ") || "none"}`);
    console.log("[copy] done. Start the site with DATABASE_URL set to that database.");
  } finally {
    await source.destroy();
    await target.destroy();
  }
}

/** `npm run restore -- FILE`: the backup into DATA_DIR, which must be empty (or missing). */
export async function restoreCommand(args: string[]) {
  const at = args.indexOf("--identity");
  const identity = at >= 0 ? args[at + 1] : process.env.BACKUP_IDENTITY_FILE?.trim() || undefined;
  const file = args.find((a, i) => !a.startsWith("--") && (at < 0 || i !== at + 1));
  if (!file) throw new Error("Say which backup to restore: `npm run restore -- FILE [--identity KEY_FILE]` (a site-….tar.gz or .tar.gz.age).");
  const config = env();
  process.umask(0o077);
  const done = await restoreBackup(path.resolve(file), config.dataDir, config.databasePath, identity ? path.resolve(identity) : undefined);
  console.log(`[restore] restored ${file} into ${done.dataDir} (database ${done.databasePath}). Start the site with npm start.`);
}
