import type { Db } from "~/lib/db/db.server";
import { randomToken } from "~/lib/mail/email.server";
import { isForgottenAddress } from "~/features/people/retention.server";

/**
 * The newsletter's part of moving the old site in (app/features/legacy-import): the old
 * subscribers.json's addresses, with their status and date; no welcome is sent (they signed up
 * on the old site), and an address already here is left as it is. An address retention forgot
 * after it unsubscribed (its hash is kept) is not added again.
 */
export async function importSubscriber(
  db: Db,
  s: { email: string; source: string; status: "active" | "unsubscribed"; createdAt: string },
): Promise<"added" | "exists"> {
  if (await isForgottenAddress(db, s.email)) return "exists";
  const done = await db
    .insertInto("subscribers")
    .values({
      email: s.email,
      status: s.status,
      source: s.source,
      token: randomToken(),
      created_at: s.createdAt,
      updated_at: s.createdAt,
      unsubscribed_at: s.status === "unsubscribed" ? s.createdAt : null,
    })
    .onConflict((oc) => oc.column("email").doNothing())
    .executeTakeFirst();
  return Number(done.numInsertedOrUpdatedRows ?? 0) === 1 ? "added" : "exists";
}
