import { logAction } from "~/features/activity/activity.server";
import type { Actor } from "~/lib/core/actor";
import { nowIso, type Db } from "~/lib/db/db.server";

/**
 * Staff sessions are rows keyed by a hash of the cookie's random id (so a copy of the database
 * opens none) and tied to the admin key's fingerprint (so a new key ends them all).
 */
export type StaffSessionRow = { id: string; createdAt: string; expiresAt: string };

/** The live session with this row id under this key, or null. */
export async function findStaffSession(db: Db, rowId: string, fingerprint: string, same: (a: string, b: string) => boolean): Promise<StaffSessionRow | null> {
  const row = await db.selectFrom("staff_sessions").selectAll().where("id", "=", rowId).executeTakeFirst();
  if (!row || row.expires_at <= nowIso() || !same(row.key_fingerprint, fingerprint)) return null;
  return { id: row.id, createdAt: row.created_at, expiresAt: row.expires_at };
}

/**
 * Opens a session; in the same transaction ends the one it replaces (if any), expired ones and
 * those opened under an earlier key.
 */
export async function openStaffSession(
  db: Db,
  s: { rowId: string; replaces: string | null; fingerprint: string; seconds: number; address: string },
) {
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("staff_sessions")
      .where((eb) =>
        eb.or([
          eb("expires_at", "<=", now.toISOString()),
          eb("key_fingerprint", "!=", s.fingerprint),
          ...(s.replaces ? [eb("id", "=", s.replaces)] : []),
        ]),
      )
      .execute();
    await trx
      .insertInto("staff_sessions")
      .values({
        id: s.rowId,
        key_fingerprint: s.fingerprint,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + s.seconds * 1000).toISOString(),
        actor_ip: s.address.slice(0, 64),
      })
      .execute();
  });
}

export async function endStaffSession(db: Db, rowId: string) {
  await db.deleteFrom("staff_sessions").where("id", "=", rowId).execute();
}

/** Ends every staff session, on every device. */
export async function endAllStaffSessions(db: Db) {
  await db.deleteFrom("staff_sessions").execute();
}

/**
 * The staff session events of the activity log. The cookie itself belongs to the route (it is
 * HTTP); what happened, and who did it, is recorded here.
 */
export function staffSignedIn(db: Db, actor: Actor) {
  return logAction(db, actor, { type: "admin.sign_in", message: "Staff signed in" });
}

/** One device signs out, or every device (every session is ended, this one too). */
export async function staffSignedOut(db: Db, actor: Actor, everywhere: boolean) {
  if (everywhere) await endAllStaffSessions(db);
  await logAction(db, actor, {
    type: everywhere ? "admin.sign_out_everywhere" : "admin.sign_out",
    message: everywhere ? "Staff signed out on every device" : "Staff signed out",
  });
}
