import { data, redirect, type AppLoadContext } from "react-router";
import { recordActivity } from "~/features/activity/activity.server";
import {
  checkAdminKey,
  createAdminSessionCookie,
  destroyAdminSessionCookie,
} from "~/lib/admin.server";
import { getDb } from "~/lib/db.server";
import { readForm } from "~/lib/forms.server";
import { asRouteError, clientAddress, isCrossSiteBrowserRequest, safeReturnPath } from "~/lib/http.server";

export type SignInReply = { error: string };

/** The sign-in and sign-out forms of every admin screen post here (/admin). */
export async function adminSessionAction(request: Request, context: AppLoadContext | undefined) {
  if (isCrossSiteBrowserRequest(request)) throw data("Cross-site request refused.", { status: 403 });
  const form = await asRouteError(() => readForm(request, 4096));
  const address = clientAddress(context);
  const db = await getDb();
  if (form.get("intent") === "sign-out") {
    await recordActivity(db, { type: "admin.sign_out", message: "Staff signed out", actorIp: address });
    throw redirect("/admin", { headers: { "Set-Cookie": await destroyAdminSessionCookie(request) } });
  }
  const key = String(form.get("key") ?? "").trim();
  const returnTo = safeReturnPath(form.get("returnTo"));
  if (!key) return data<SignInReply>({ error: "Admin key required." }, 400);
  const check = await checkAdminKey(key, address);
  if (!check.ok) {
    if (check.status === 401) {
      await recordActivity(db, { type: "admin.sign_in_failed", message: "Wrong admin key", actorIp: address });
    }
    const headers: Record<string, string> = check.retryAfterSeconds
      ? { "Retry-After": String(check.retryAfterSeconds) }
      : {};
    return data<SignInReply>({ error: check.error }, { status: check.status, headers });
  }
  await recordActivity(db, { type: "admin.sign_in", message: "Staff signed in", actorIp: address });
  throw redirect(returnTo, { headers: { "Set-Cookie": await createAdminSessionCookie(request) } });
}

export async function outboxSummary() {
  const db = await getDb();
  const rows = await db
    .selectFrom("outbox")
    .select(["status", db.fn.countAll<number>().as("n")])
    .groupBy("status")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>;
}
