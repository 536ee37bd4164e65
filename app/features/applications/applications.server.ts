import type { Db } from "~/lib/db.server";
import { nowIso } from "~/lib/db.server";
import { enqueueMail, kickMailWorker } from "~/lib/email.server";
import { env } from "~/lib/env.server";
import { site } from "~/lib/site";
import type { ApplicationInput } from "./applications.schema";
import { applicationNoticeEmail } from "./emails/application-notice";

/** Saves an application and queues the notice to the organisation in one transaction. */
export async function submitApplication(db: Db, input: ApplicationInput): Promise<{ id: number }> {
  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("applications")
      .values({ ...input, created_at: nowIso() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await enqueueMail(trx, {
      kind: "application.notice",
      to: env().orgInbox ?? site.applicationsEmail,
      replyTo: input.email,
      ...applicationNoticeEmail({ ...input, id: row.id }),
    });
    return row.id;
  });
  void kickMailWorker();
  return { id };
}
