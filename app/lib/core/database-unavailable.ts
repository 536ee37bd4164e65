/**
 * "The database is away for a moment": one test for every place that turns an error into an
 * answer (a 503 with Retry-After and a sentence, never a 500) or decides whether a background
 * loop logs. PostgreSQL restarting, refusing or dropping connections, a pool with no connection
 * free within its wait, a statement or lock timeout; SQLite busy past busy_timeout, locked, or
 * failing to read, write or open its files.
 */

/** How long a caller is asked to wait (Retry-After) before trying again. */
export const RETRY_AFTER_SECONDS = 30;

/** Thrown where the database is known to be away (or not ready yet) without asking it again. */
export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
  readonly code = "DATABASE_UNAVAILABLE";
  constructor(message = "the database is unavailable", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** PostgreSQL SQLSTATEs that mean 'not now', not 'wrong'. */
const PG_CODES = new Set([
  "57P01", // admin_shutdown: terminating connection due to administrator command
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up, shutting down, in recovery
  "57P05", // idle_session_timeout
  "57014", // query_canceled (statement_timeout)
  "55P03", // lock_not_available (lock_timeout)
  "53300", // too_many_connections
  "53100", // disk_full
  "58000", // system_error
  "58030", // io_error
  "08000", // connection_exception
  "08001", // sqlclient_unable_to_establish_sqlconnection
  "08003", // connection_does_not_exist
  "08004", // sqlserver_rejected_establishment_of_sqlconnection
  "08006", // connection_failure
  "25P03", // idle_in_transaction_session_timeout
]);

/** Node's socket errors on the way to the database. */
const NET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ECONNABORTED"]);

/** SQLite result codes (better-sqlite3 names them; extended codes start with these). */
const SQLITE_PREFIXES = ["SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_FULL", "SQLITE_READONLY", "SQLITE_PROTOCOL", "SQLITE_NOLFS"];

/** pg and pg-pool say these in words only (no code). */
const MESSAGES = [
  /^Connection terminated/i,
  /^timeout exceeded when trying to connect/i,
  /is not queryable/i,
  /^Query read timeout/i,
  /terminating connection due to/i,
  /the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)/i,
  /^database is locked/i,
  /^driver has already been destroyed/i,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  if (error instanceof DatabaseUnavailableError) return true;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  if (code && (PG_CODES.has(code) || NET_CODES.has(code) || SQLITE_PREFIXES.some((p) => code.startsWith(p)))) return true;
  const message = typeof e.message === "string" ? e.message : "";
  if (message && MESSAGES.some((m) => m.test(message))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/**
 * What a visitor is told, by what they were doing: the order forms and APIs promise that nothing
 * was charged, other forms that nothing was saved, pages and reads that they can try again.
 */
export const UNAVAILABLE = {
  orders: "We cannot take orders for a moment; nothing was charged; try again in a minute.",
  lookup: "We cannot look up orders for a moment. Please try again in a minute.",
  staff: "The database is not answering for a moment, so nothing was changed. Please try again in a minute.",
  save: "We cannot save this for a moment; nothing was saved. Please try again in a minute.",
  page: "This page cannot be shown for a moment. Please try again in a minute.",
  read: "This is not available for a moment. Please try again in a minute.",
} as const;

const ORDER_PATHS = ["/event", "/merchandise", "/api/badge_orders.php", "/api/merch_orders.php"];
const STAFF_PATHS = ["/admin", "/blogs/admin", "/merchandise/admin"];

const under = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

export function unavailableSentence(method: string, pathname: string): string {
  const path = pathname.replace(/\.data$/, "");
  const writing = !["GET", "HEAD"].includes(method.toUpperCase());
  if (STAFF_PATHS.some((p) => under(path, p))) return writing ? UNAVAILABLE.staff : UNAVAILABLE.page;
  if (writing && ORDER_PATHS.some((p) => under(path, p))) return UNAVAILABLE.orders;
  if (under(path, "/orders")) return UNAVAILABLE.lookup;
  if (writing) return UNAVAILABLE.save;
  return isJsonPath(path) ? UNAVAILABLE.read : UNAVAILABLE.page;
}

/** Addresses whose answers are JSON (the legacy API and the data files). */
export const isJsonPath = (pathname: string) => pathname.startsWith("/api/") || pathname.endsWith(".json");
