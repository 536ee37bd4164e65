import { logAction } from "~/features/activity/activity.server";
import type { Actor } from "~/lib/actor";
import { endAllStaffSessions } from "~/lib/admin.server";
import type { Db } from "~/lib/db.server";

/**
 * The staff session events of the activity log. The cookie itself belongs to the route (it is
 * HTTP); what happened, and who did it, is recorded here.
 */
export function staffSignedIn(db: Db, actor: Actor) {
  return logAction(db, actor, { type: "admin.sign_in", message: "Staff signed in" });
}

/** One device signs out, or every device (every session is ended, this one too). */
export async function staffSignedOut(db: Db, actor: Actor, everywhere: boolean) {
  if (everywhere) await endAllStaffSessions();
  await logAction(db, actor, {
    type: everywhere ? "admin.sign_out_everywhere" : "admin.sign_out",
    message: everywhere ? "Staff signed out on every device" : "Staff signed out",
  });
}
