import crypto from "node:crypto";
import { logAction } from "~/features/activity/activity.server";
import { system } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/db.server";
import { renderEmail } from "~/lib/mail/email-layout";
import { enqueueMail, kickMailWorker, organisationInbox, randomToken } from "~/lib/mail/email.server";
import { absoluteUrl } from "~/lib/http/http.server";
import { site } from "~/lib/core/site";
import { LINK_HOURS, MY_DATA_PATH } from "./people";
import { exportPerson, findPerson } from "./people.server";

/**
 * A person's own requests (/privacy/my-data): a link valid for 24 hours is mailed to the
 * address typed, and only to it; whoever typed the address is told the same words whether or
 * not anything is held, and sees no data. The link downloads the person's ZIP, or (a request to
 * erase) sends the request on to staff, who confirm it on /admin/people.
 */

const hashOf = (token: string) => crypto.createHash("sha256").update(token).digest("base64url");
export const myDataLink = (kind: "export" | "erase", token: string) =>
  absoluteUrl(`${MY_DATA_PATH}/${kind === "export" ? "download" : "erase"}?token=${encodeURIComponent(token)}`);

/** Records the request and mails the link, when the site holds something for the address. */
export async function requestMyData(db: Db, input: { email: string; kind: "export" | "erase" }): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const found = await findPerson(db, email);
  if (!found.holdings.length) return;
  const token = randomToken(24);
  const now = new Date();
  const link = myDataLink(input.kind, token);
  const mail =
    input.kind === "export"
      ? renderEmail({
          subject: `Your data at ${site.name}`,
          heading: "A copy of your data",
          paragraphs: [
            `Someone (we hope you) asked for a copy of what ${site.name} holds about this address. The link below downloads it as one ZIP file and works for ${LINK_HOURS} hours.`,
            "If you did not ask, ignore this message: nobody else gets the link.",
          ],
          cta: { label: "Download my data", url: link },
        })
      : renderEmail({
          subject: `Your request to erase your data at ${site.name}`,
          heading: "Confirm your request to erase",
          paragraphs: [
            `Someone (we hope you) asked ${site.name} to erase what it holds about this address. Open the link below within ${LINK_HOURS} hours to send the request to our staff, who will confirm it.`,
            "If you did not ask, ignore this message and nothing will change.",
          ],
          cta: { label: "Send my request to erase", url: link },
        });
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("data_requests")
      .values({ token_hash: hashOf(token), kind: input.kind, email, created_at: now.toISOString(), expires_at: new Date(now.getTime() + LINK_HOURS * 3_600_000).toISOString(), confirmed_at: null, done_at: null })
      .execute();
    await enqueueMail(trx, { kind: `people.${input.kind}-link`, to: email, ...mail });
  });
  void kickMailWorker();
}

export type LinkState = { state: "unknown" } | { state: "export"; token: string } | { state: "erase"; token: string; sent: boolean };

/** What a mailed link leads to; expired or unknown links lead nowhere. */
export async function openMyDataLink(db: Db, token: string, now = new Date()): Promise<LinkState> {
  const row = await db.selectFrom("data_requests").selectAll().where("token_hash", "=", hashOf(token)).executeTakeFirst();
  if (!row || row.expires_at <= now.toISOString()) return { state: "unknown" };
  return row.kind === "export" ? { state: "export", token } : { state: "erase", token, sent: !!row.confirmed_at };
}

/** The ZIP a valid export link downloads. */
export async function downloadMyData(db: Db, token: string, now = new Date()) {
  const link = await openMyDataLink(db, token, now);
  if (link.state !== "export") return null;
  const row = await db.selectFrom("data_requests").select("email").where("token_hash", "=", hashOf(token)).executeTakeFirstOrThrow();
  await db.updateTable("data_requests").set({ confirmed_at: nowIso() }).where("token_hash", "=", hashOf(token)).where("confirmed_at", "is", null).execute();
  return exportPerson(db, row.email).catch(() => null);
}

/** The person confirmed their request to erase: it waits for staff, who are told by mail. */
export async function sendEraseRequest(db: Db, token: string, now = new Date()): Promise<boolean> {
  const link = await openMyDataLink(db, token, now);
  if (link.state !== "erase") return false;
  if (link.sent) return true;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("data_requests").set({ confirmed_at: nowIso() }).where("token_hash", "=", hashOf(token)).execute();
    const mail = renderEmail({
      subject: "A request to erase someone's data is waiting",
      heading: "A request to erase, to confirm",
      paragraphs: ["A person confirmed, from their own mailbox, that they want their data erased. Open the staff screen, check the records listed there, and erase them."],
      cta: { label: "People's data", url: absoluteUrl("/admin/people") },
    });
    await enqueueMail(trx, { kind: "people.erase-request", to: organisationInbox(), ...mail });
  });
  await logAction(db, system("a person's own request"), { type: "people.erase_request", message: "A request to erase a person's data is waiting for staff" });
  void kickMailWorker();
  return true;
}

/** Requests to erase that the person confirmed and staff have not yet done. */
export async function pendingEraseRequests(db: Db): Promise<{ email: string; confirmedAt: string }[]> {
  const rows = await db
    .selectFrom("data_requests")
    .select(["email", "confirmed_at"])
    .where("kind", "=", "erase")
    .where("confirmed_at", "is not", null)
    .where("done_at", "is", null)
    .orderBy("confirmed_at")
    .execute();
  return rows.map((r) => ({ email: r.email, confirmedAt: r.confirmed_at! }));
}

/** After an erasure: the person's requests are done, and keep no address. */
export async function closeRequestsOf(db: Db, emails: string[]) {
  if (!emails.length) return;
  await db.deleteFrom("data_requests").where("email", "in", emails).execute();
}
