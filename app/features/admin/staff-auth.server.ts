import crypto from "node:crypto";
import { createCookie, data, redirect, type AppLoadContext, type Cookie } from "react-router";
import { recordWrongKey } from "./wrong-keys.server";
import { endStaffSession, findStaffSession, openStaffSession, type StaffSessionRow } from "./staff-sessions.server";
import { staff, type Actor } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { clientAddress, HttpError, isCrossSiteBrowserRequest, isSameSiteFormPost } from "~/lib/http/http.server";
import { consume, tooManyMessage, type LimitRule } from "~/lib/server/rate-limit.server";
import { adminKeyFingerprint, getAdminKey, getSessionSecret, safeEqual } from "~/lib/db/secrets.server";

/** Wrong admin keys: five from one address in 15 minutes, then that address's guesses wait 15 minutes. */
const WRONG_KEY_RULE: LimitRule = { points: 5, durationSeconds: 900, blockSeconds: 900 };
const SESSION_SECONDS = 60 * 60 * 12;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

let cookie: Cookie | undefined;

/** The signed `__admin` cookie; it holds only a random session id. */
function sessionCookie() {
  cookie ??= createCookie("__admin", {
    httpOnly: true,
    sameSite: "strict",
    secure: env().publicUrl.startsWith("https://"),
    path: "/",
    maxAge: SESSION_SECONDS,
    secrets: [getSessionSecret()],
  });
  return cookie;
}

/** Rows are keyed by a hash of the id, so a copy of the database opens no session. */
const rowId = (sessionId: string) => crypto.createHash("sha256").update(sessionId).digest("base64url");

export type KeyCheck =
  | { ok: true }
  | { ok: false; status: 401 | 429; error: string; retryAfterSeconds?: number };

/**
 * Checks a typed or sent key. The right key is always accepted, whatever came from the same
 * address before (staff often share a carrier's or a hall's address with strangers). Wrong
 * keys are counted per address: after five in 15 minutes that address's wrong keys get a 429
 * for 15 minutes, which costs it one hash comparison each. A missing key is not a guess.
 */
export async function checkAdminKey(db: Db, key: string, address: string, via: "form" | "api"): Promise<KeyCheck> {
  if (!key) return { ok: false, status: 401, error: "Admin key required." };
  if (safeEqual(key, getAdminKey())) return { ok: true };
  const after = await consume("admin-key", WRONG_KEY_RULE, address, { force: true });
  await recordWrongKey(db, { address, via, throttled: !after.ok });
  if (!after.ok) {
    const s = after.retryAfterSeconds;
    return { ok: false, status: 429, error: tooManyMessage(s), retryAfterSeconds: s };
  }
  return { ok: false, status: 401, error: "That admin key is not right." };
}

export type StaffSession = StaffSessionRow;

// The staff layout and the screen below it both ask for the same request: one lookup.
const lookups = new WeakMap<Request, Promise<StaffSession | null>>();

/** The staff session the request's cookie names: signed, still in the table, unexpired, opened under this key. */
export function getStaffSession(db: Db, request: Request): Promise<StaffSession | null> {
  let lookup = lookups.get(request);
  if (!lookup) {
    lookup = readStaffSession(db, request);
    lookups.set(request, lookup);
  }
  return lookup;
}

async function readSessionId(request: Request): Promise<string | null> {
  const value: unknown = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && SESSION_ID.test(value) ? value : null;
}

async function readStaffSession(db: Db, request: Request): Promise<StaffSession | null> {
  const sessionId = await readSessionId(request);
  if (!sessionId) return null;
  return findStaffSession(db, rowId(sessionId), adminKeyFingerprint(), safeEqual);
}

export async function isAdminSession(db: Db, request: Request): Promise<boolean> {
  return (await getStaffSession(db, request)) !== null;
}

/**
 * Opens a staff session (after the right key) and answers the Set-Cookie value. The session
 * the request's cookie named, if any, is ended, and expired sessions and those of an earlier
 * key are deleted.
 */
export async function createAdminSessionCookie(db: Db, request: Request, address = ""): Promise<string> {
  const sessionId = crypto.randomBytes(32).toString("base64url");
  const previous = await readSessionId(request);
  await openStaffSession(db, {
    rowId: rowId(sessionId),
    replaces: previous ? rowId(previous) : null,
    fingerprint: adminKeyFingerprint(),
    seconds: SESSION_SECONDS,
    address,
  });
  return sessionCookie().serialize(sessionId);
}

/** Ends the request's session on the server and answers the Set-Cookie value that clears it. */
export async function destroyAdminSessionCookie(db: Db, request: Request): Promise<string> {
  const sessionId = await readSessionId(request);
  if (sessionId) await endStaffSession(db, rowId(sessionId));
  return sessionCookie().serialize("", { maxAge: undefined, expires: new Date(0) });
}

/**
 * Staff forms are accepted from this site's own pages only. Browsers send Origin (and
 * Sec-Fetch-Site) with every POST, so a staff form without either did not come from a page.
 */
export function requireSameSiteForm(request: Request) {
  if (!isSameSiteFormPost(request)) throw data("Cross-site request refused.", { status: 403 });
}

/**
 * For the loader of a staff screen: its data for signed-in staff, null for anyone else (the
 * staff layout shows the sign-in form then, and never the screen).
 */
export async function staffOnly<T>(db: Db, request: Request, load: () => Promise<T>): Promise<T | null> {
  return (await isAdminSession(db, request)) ? load() : null;
}

/** For the actions of staff screens: a signed-in session posting from this site, or a 403/redirect. */
export async function requireAdminSession(db: Db, request: Request, returnTo = "/admin") {
  requireSameSiteForm(request);
  if (!(await isAdminSession(db, request))) {
    throw redirect(`/admin?returnTo=${encodeURIComponent(returnTo)}`);
  }
}

/**
 * For the actions of staff screens: the staff member acting (signed in, posting from this
 * site), or a 403 for another site's page, or sign-in first and then back to `returnTo`.
 */
export async function requireStaff(request: Request, context: AppLoadContext, returnTo = "/admin"): Promise<Actor> {
  await requireAdminSession(context.db, request, returnTo);
  return staff(clientAddress(context));
}

/**
 * For the JSON API: the X-Admin-Key header (or a staff session cookie), from this site only.
 * Throws HttpError with the status and message to send back.
 */
export async function requireAdminApi(request: Request, context: AppLoadContext) {
  if (isCrossSiteBrowserRequest(request)) {
    throw new HttpError(403, "Admin calls are accepted from this site only.");
  }
  const key = request.headers.get("x-admin-key")?.trim() ?? "";
  if (!key && (await isAdminSession(context.db, request))) return;
  const check = await checkAdminKey(context.db, key, clientAddress(context), "api");
  if (!check.ok) {
    const headers: Record<string, string> = check.retryAfterSeconds
      ? { "Retry-After": String(check.retryAfterSeconds) }
      : {};
    throw new HttpError(check.status, check.error, headers);
  }
}

export function resetAdminForTests() {
  cookie = undefined;
}
