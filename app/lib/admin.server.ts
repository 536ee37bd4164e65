import { createCookieSessionStorage, data, redirect, type AppLoadContext } from "react-router";
import { env } from "./env.server";
import { clientAddress, HttpError, isCrossSiteBrowserRequest } from "./http.server";
import { consume, isBlocked, tooManyMessage, type LimitRule } from "./rate-limit.server";
import { adminKeyFingerprint, getAdminKey, getSessionSecret, safeEqual } from "./secrets.server";

/** Wrong admin keys: five from one address in 15 minutes, then a 15-minute wait. */
const WRONG_KEY_RULE: LimitRule = { points: 5, durationSeconds: 900, blockSeconds: 900 };

let storage: ReturnType<typeof createCookieSessionStorage<{ kf: string }>> | undefined;

function sessionStorage() {
  storage ??= createCookieSessionStorage<{ kf: string }>({
    cookie: {
      name: "__admin",
      httpOnly: true,
      sameSite: "strict",
      secure: env().publicUrl.startsWith("https://"),
      path: "/",
      maxAge: 60 * 60 * 12,
      secrets: [getSessionSecret()],
    },
  });
  return storage;
}

export type KeyCheck =
  | { ok: true }
  | { ok: false; status: 401 | 429; error: string; retryAfterSeconds?: number };

/** Checks a typed or sent key, throttling wrong guesses per address. */
export async function checkAdminKey(key: string, address: string): Promise<KeyCheck> {
  const blocked = await isBlocked("admin-key", WRONG_KEY_RULE, address);
  if (!blocked.ok) {
    const s = blocked.retryAfterSeconds;
    return { ok: false, status: 429, error: tooManyMessage(s), retryAfterSeconds: s };
  }
  // No key at all is a missing field, not a guess: it costs nothing.
  if (!key) return { ok: false, status: 401, error: "Admin key required." };
  if (safeEqual(key, getAdminKey())) return { ok: true };
  const after = await consume("admin-key", WRONG_KEY_RULE, address, { force: true });
  if (!after.ok) {
    const s = after.retryAfterSeconds;
    return { ok: false, status: 429, error: tooManyMessage(s), retryAfterSeconds: s };
  }
  return { ok: false, status: 401, error: "That admin key is not right." };
}

export async function isAdminSession(request: Request): Promise<boolean> {
  const session = await sessionStorage().getSession(request.headers.get("Cookie"));
  const kf = session.get("kf");
  return typeof kf === "string" && safeEqual(kf, adminKeyFingerprint());
}

export async function createAdminSessionCookie(request: Request) {
  const session = await sessionStorage().getSession(request.headers.get("Cookie"));
  session.set("kf", adminKeyFingerprint());
  return sessionStorage().commitSession(session);
}

export async function destroyAdminSessionCookie(request: Request) {
  const session = await sessionStorage().getSession(request.headers.get("Cookie"));
  return sessionStorage().destroySession(session);
}

/**
 * For admin HTML actions: a signed-in session from this site, or a 403/redirect. Loaders of
 * admin screens use isAdminSession to choose between the screen and the sign-in form.
 */
export async function requireAdminSession(request: Request, returnTo = "/admin") {
  if (isCrossSiteBrowserRequest(request)) throw data("Cross-site request refused.", { status: 403 });
  if (!(await isAdminSession(request))) {
    throw redirect(`/admin?returnTo=${encodeURIComponent(returnTo)}`);
  }
}

/**
 * For the JSON API: the X-Admin-Key header (or a staff session cookie), from this site only.
 * Throws HttpError with the status and message to send back.
 */
export async function requireAdminApi(request: Request, context: AppLoadContext | undefined) {
  if (isCrossSiteBrowserRequest(request)) {
    throw new HttpError(403, "Admin calls are accepted from this site only.");
  }
  const key = request.headers.get("x-admin-key")?.trim() ?? "";
  if (!key && (await isAdminSession(request))) return;
  const check = await checkAdminKey(key, clientAddress(context));
  if (!check.ok) {
    const headers: Record<string, string> = check.retryAfterSeconds
      ? { "Retry-After": String(check.retryAfterSeconds) }
      : {};
    throw new HttpError(check.status, check.error, headers);
  }
}

export function resetAdminForTests() {
  storage = undefined;
}
