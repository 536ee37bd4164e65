import type { Db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/db.server";
import { enqueueMail, kickMailWorker } from "~/lib/mail/email.server";
import { env } from "~/lib/server/env.server";
import { site } from "~/lib/core/site";
import { CONSENT_VERSION } from "~/lib/core/data-notices";
import type { ApplicationInput } from "./applications.schema";
import { applicationNoticeEmail } from "./emails/application-notice";

/**
 * Saves an application and queues the notice to the organisation in one transaction. It keeps
 * the notice wording's version and when it was agreed to (the join form's tick is required).
 */
export async function submitApplication(db: Db, input: ApplicationInput & { consent?: string }): Promise<{ id: number }> {
  const { consent: _consent, ...fields } = input;
  const id = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    const row = await trx
      .insertInto("applications")
      .values({ ...fields, created_at: now, consent_version: CONSENT_VERSION, consent_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await enqueueMail(trx, {
      kind: "application.notice",
      to: env().orgInbox ?? site.applicationsEmail,
      replyTo: fields.email,
      ...applicationNoticeEmail({ ...fields, id: row.id }),
    });
    return row.id;
  });
  void kickMailWorker();
  return { id };
}
