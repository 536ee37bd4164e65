import type { Selectable } from "kysely";
import type { Db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/db.server";
import { enqueueMail, kickMailWorker, randomToken } from "~/lib/mail/email.server";
import { clearSuppression } from "~/lib/mail/mail-health.server";
import { absoluteUrl } from "~/lib/http/http.server";
import { CONSENT_VERSION } from "~/lib/core/data-notices";
import { welcomeEmail } from "./emails/welcome";
import type { SubscribeInput } from "./newsletter.schema";
import type { SubscribersTable } from "./newsletter.tables";

export type SubscribeOutcome = "created" | "reactivated" | "already";

export const unsubscribeUrl = (token: string) => absoluteUrl(`/unsubscribe?token=${encodeURIComponent(token)}`);

/**
 * Adds a subscriber, or turns an unsubscribed one back on. A known active address changes
 * nothing and gets no second welcome. The welcome is queued in the same transaction.
 */
const ALREADY = Symbol("already subscribed");

export async function subscribe(db: Db, input: Pick<SubscribeInput, "email" | "source">): Promise<SubscribeOutcome> {
  const outcome = await db
    .transaction()
    .execute(async (trx) => {
      const now = nowIso();
      // Subscribing again is asking for mail again: an address its server once refused gets it.
      await clearSuppression(trx, input.email);
      const existing = await trx
        .selectFrom("subscribers")
        .select(["id", "status", "token"])
        .where("email", "=", input.email)
        .executeTakeFirst();
      let token: string;
      let outcome: SubscribeOutcome;
      if (!existing) {
        token = randomToken();
        await trx
          .insertInto("subscribers")
          .values({
            email: input.email,
            status: "active",
            source: input.source,
            token,
            created_at: now,
            updated_at: now,
            unsubscribed_at: null,
            consent_version: CONSENT_VERSION,
            consent_at: now,
          })
          .onConflict((oc) => oc.column("email").doNothing())
          .executeTakeFirst()
          .then((r) => {
            // The same address subscribed by another request a moment ago (PostgreSQL runs the
            // two side by side): that one sends the welcome.
            if (Number(r.numInsertedOrUpdatedRows ?? 0) !== 1) throw ALREADY;
          });
        outcome = "created";
      } else if (existing.status !== "active") {
        token = existing.token;
        await trx
          .updateTable("subscribers")
          .set({ status: "active", updated_at: now, unsubscribed_at: null, consent_version: CONSENT_VERSION, consent_at: now, source: input.source })
          .where("id", "=", existing.id)
          .execute();
        outcome = "reactivated";
      } else {
        return "already" as const;
      }
      const link = unsubscribeUrl(token);
      const mail = welcomeEmail({ unsubscribeUrl: link, siteUrl: absoluteUrl("/") });
      await enqueueMail(trx, {
        kind: "newsletter.welcome",
        to: input.email,
        ...mail,
        headers: {
          "List-Unsubscribe": `<${link}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
      });
      return outcome;
    })
    .catch((e: unknown) => {
      if (e === ALREADY) return "already" as const;
      throw e;
    });
  if (outcome !== "already") void kickMailWorker();
  return outcome;
}

export async function findSubscriberByToken(db: Db, token: string) {
  return db.selectFrom("subscribers").select(["email", "status"]).where("token", "=", token).executeTakeFirst();
}

/** Unsubscribes the holder of `token`; true when the token was known. */
export async function unsubscribe(db: Db, token: string): Promise<boolean> {
  const now = nowIso();
  const res = await db
    .updateTable("subscribers")
    .set({ status: "unsubscribed", updated_at: now, unsubscribed_at: now })
    .where("token", "=", token)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export type SubscriberView = Pick<Selectable<SubscribersTable>, "email" | "status" | "source" | "created_at">;

export async function listSubscribers(db: Db, limit = 100): Promise<SubscriberView[]> {
  return db.selectFrom("subscribers").select(["email", "status", "source", "created_at"]).orderBy("id", "desc").limit(limit).execute();
}

/** Hides most of an address on public pages: j***@example.org. */
export function maskEmail(email: string) {
  const [user = "", domain = ""] = email.split("@");
  return `${user.slice(0, 1)}***@${domain}`;
}
