import { data, redirect, type AppLoadContext } from "react-router";
import type { Reply } from "~/lib/core/forms";
import { listActivity } from "~/features/activity/activity.server";
import { staffSignedIn, staffSignedOut } from "~/features/admin/staff-sessions.server";
import {
  checkAdminKey,
  createAdminSessionCookie,
  destroyAdminSessionCookie,
  isAdminSession,
  requireSameSiteForm,
} from "~/features/admin/staff-auth.server";
import { outboxSummary } from "~/lib/mail/email.server";
import { mailHealth } from "~/lib/mail/mail-health.server";
import { paymentArrivals } from "~/features/received-payments/payment-arrivals.server";
import { env } from "~/lib/server/env.server";
import { staff } from "~/lib/core/actor";
import { asRouteError, clientAddress } from "~/lib/http/http.server";
import { intentOf, readForm, replyFromError, submissionOf } from "~/lib/forms/submission.server";
import { safeReturnPath } from "~/lib/core/return-path";
import { STAFF_HOME } from "~/features/admin/staff-screen";
import { wrongKeySummary } from "~/features/admin/wrong-keys.server";

/**
 * A refused sign-in carries where the form returns to, so the next try goes back there. 'Sign
 * out everywhere' asks first: its answer carries the question's mark and the screen it came from.
 */
export type SignInResult = { returnTo: string; confirm?: "sign-out-everywhere" };

export const SIGN_OUT_EVERYWHERE_QUESTION = "Sign out every staff phone and computer?";

/** Where the sign-in form sends staff back to: the screen they opened (on /admin, its ?returnTo=). */
function signInReturnTo(url: URL) {
  if (url.pathname === STAFF_HOME) return safeReturnPath(url.searchParams.get("returnTo") ?? STAFF_HOME);
  const here = url.pathname + url.search;
  return safeReturnPath(here.length <= 300 ? here : url.pathname);
}

/**
 * The loader of the staff layout: signed in, the wrong-key notice for the shell; signed out,
 * where the sign-in form returns to. Screens below load their own data with staffOnly.
 */
export async function loadStaffShell(request: Request, url: URL, context: AppLoadContext) {
  if (!(await isAdminSession(context.db, request))) {
    return { signedIn: false as const, returnTo: signInReturnTo(url) };
  }
  return { signedIn: true as const, wrongKeys: await wrongKeySummary(context.db) };
}

/**
 * The session forms of every staff screen post here (/admin; a pathless layout has no URL of
 * its own to post to): sign in with the key and returnTo, sign out, or sign out everywhere.
 */
export async function staffSessionAction(request: Request, context: AppLoadContext) {
  requireSameSiteForm(request);
  const submission = submissionOf(await asRouteError(() => readForm(request, 4096)));
  const intent = intentOf(submission);
  try {
    switch (intent) {
      case "sign-out":
      case "sign-out-everywhere":
        return await signOut(request, context, submission.fields, intent);
      default:
        return await signIn(request, context, submission.fields);
    }
  } catch (e) {
    return replyFromError<SignInResult>(e, {}, { asMessage: true });
  }
}

async function signOut(request: Request, context: AppLoadContext, fields: Record<string, unknown>, intent: string) {
  // Only a signed-in session can end the others, and only those are worth a log entry.
  if (await isAdminSession(context.db, request)) {
    const everywhere = intent === "sign-out-everywhere";
    // Every door phone would have to type the key again: a second, confirming press first
    // (the server's step, so it holds without JavaScript too).
    if (everywhere && fields.confirmed !== "yes") {
      const returnTo = safeReturnPath(fields.returnTo ?? STAFF_HOME);
      return data<Reply<SignInResult>>(
        { status: "success", intent, message: SIGN_OUT_EVERYWHERE_QUESTION, result: { returnTo, confirm: "sign-out-everywhere" } },
        200,
      );
    }
    await staffSignedOut(context.db, staff(clientAddress(context)), everywhere);
  }
  throw redirect(STAFF_HOME, { headers: { "Set-Cookie": await destroyAdminSessionCookie(context.db, request) } });
}

async function signIn(request: Request, context: AppLoadContext, fields: Record<string, unknown>) {
  // The key as typed in the masked field, or in the plain one 'Show the key' opens without JavaScript.
  const [first, second] = fields.showKey === "yes" ? [fields.keyShown, fields.key] : [fields.key, fields.keyShown];
  const key = String(first ?? "").trim() || String(second ?? "").trim();
  const returnTo = safeReturnPath(fields.returnTo);
  if (!key) return data<Reply<SignInResult>>({ status: "error", message: "Admin key required.", result: { returnTo } }, 400);
  const address = clientAddress(context);
  const check = await checkAdminKey(context.db, key, address, "form");
  if (!check.ok) {
    const headers: Record<string, string> = check.retryAfterSeconds ? { "Retry-After": String(check.retryAfterSeconds) } : {};
    return data<Reply<SignInResult>>(
      { status: "error", message: check.error, retryAfter: check.retryAfterSeconds, result: { returnTo } },
      { status: check.status, headers },
    );
  }
  await staffSignedIn(context.db, staff(address));
  throw redirect(returnTo, { headers: { "Set-Cookie": await createAdminSessionCookie(context.db, request, address) } });
}

/** The staff home: the latest log entries, newest first, and the outbox's counts. */
export async function loadStaffHome(context: AppLoadContext) {
  return {
    activity: (await listActivity(context.db, { limit: 20 })).reverse(),
    mail: await outboxSummary(context.db),
    mailHealth: await mailHealth(context.db),
    /** No SMTP_URL while serving for real: nothing leaves the machine. */
    mailNotSent: env().nodeEnv === "production" && !env().smtpUrl,
    arrivals: await paymentArrivals(context.db),
  };
}
