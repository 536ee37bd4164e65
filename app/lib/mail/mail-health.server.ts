import type { Db } from "../db/db.server";
import { nowIso } from "../db/db.server";
import { env } from "../server/env.server";

/**
 * Where mail went, said as it is: a message kept as a file because no SMTP_URL is set is
 * 'written', never 'sent'; a mail server that refuses an address for good (a 5xx answer to RCPT
 * or DATA) fails that message at once and keeps bulk mail from that address until it subscribes
 * again; a mail server that cannot be reached is counted in a row, and after MAIL_FAILING_AFTER
 * failed attempts with nothing sent since, /readyz and /admin say mail is failing.
 */
export { WRITTEN_TO_OUTBOX } from "../core/mail-words";
export const MAIL_FAILING_AFTER = 3;

/** True for a message that would tell a subscriber about a post or the newsletter: never the welcome, which subscribing asks for. */
export const isBulkKind = (kind: string) => kind.startsWith("blog.notify.") || (kind.startsWith("newsletter.") && kind !== "newsletter.welcome");

type SmtpError = { code?: unknown; responseCode?: unknown; command?: unknown };

/** A mail server's final 'no' for this message or address: 5xx to RCPT TO or DATA (nodemailer's EENVELOPE / EMESSAGE). */
export function isPermanentRejection(e: unknown): boolean {
  if (!e || typeof e !== "object") return false;
  const { code, responseCode, command } = e as SmtpError;
  if (typeof responseCode !== "number" || responseCode < 500 || responseCode > 599) return false;
  return code === "EENVELOPE" || code === "EMESSAGE" || (typeof command === "string" && /^(RCPT|DATA)/i.test(command.trim()));
}

/** A failure of the mail server or the way to it (nodemailer's errors carry a code), not of the site's own message. */
export const isTransportFailure = (e: unknown) => !!e && typeof e === "object" && typeof (e as SmtpError).code === "string";

/** Error text fit for a log line or a staff screen: addresses are written as [address]. */
export const withoutAddresses = (text: string) => text.replace(/<?[^\s<>@"']+@[^\s<>@"']+>?/g, "[address]");

export async function suppressAddress(db: Db, address: string, reason: string) {
  const row = { address: address.trim().toLowerCase(), reason: reason.slice(0, 300), suppressed_at: nowIso() };
  await db
    .insertInto("mail_suppressions")
    .values(row)
    .onConflict((oc) => oc.column("address").doUpdateSet({ reason: row.reason, suppressed_at: row.suppressed_at }))
    .execute();
}

export async function isSuppressed(db: Db, address: string) {
  return !!(await db.selectFrom("mail_suppressions").select("address").where("address", "=", address.trim().toLowerCase()).executeTakeFirst());
}

/** Subscribing again: the address gets bulk mail again. */
export async function clearSuppression(db: Db, address: string) {
  await db.deleteFrom("mail_suppressions").where("address", "=", address.trim().toLowerCase()).execute();
}

/** When each address (of those given) was suppressed, for the staff list of subscribers. */
export async function suppressionsOf(db: Db, addresses: string[]): Promise<Map<string, string>> {
  if (addresses.length === 0) return new Map();
  const rows = await db
    .selectFrom("mail_suppressions")
    .select(["address", "suppressed_at"])
    .where("address", "in", addresses.map((a) => a.trim().toLowerCase()))
    .execute();
  return new Map(rows.map((r) => [r.address, r.suppressed_at]));
}

export async function noteMailFailure(db: Db, error: string) {
  const now = nowIso();
  await db
    .updateTable("mail_health")
    .set((eb) => ({
      failures_in_row: eb("failures_in_row", "+", 1),
      first_failure_at: eb.fn.coalesce("first_failure_at", eb.val(now)),
      last_failure_at: now,
      last_error: withoutAddresses(error).slice(0, 300),
    }))
    .where("id", "=", 1)
    .execute();
}

/** A message left: the count in a row starts again (a no-op while nothing failed). */
export async function noteMailDelivered(db: Db) {
  await db
    .updateTable("mail_health")
    .set({ failures_in_row: 0, first_failure_at: null, last_failure_at: null, last_error: null })
    .where("id", "=", 1)
    .where("failures_in_row", ">", 0)
    .execute();
}

export type MailHealth = {
  failing: boolean;
  failuresInRow: number;
  since: string | null;
  lastFailureAt: string | null;
  lastError: string | null;
  /** No SMTP_URL: messages are written to DATA_DIR/outbox, none leave the machine. */
  outboxOnly: boolean;
};

export async function mailHealth(db: Db): Promise<MailHealth> {
  const row = await db.selectFrom("mail_health").selectAll().where("id", "=", 1).executeTakeFirst();
  const failuresInRow = row?.failures_in_row ?? 0;
  return {
    failing: failuresInRow >= MAIL_FAILING_AFTER,
    failuresInRow,
    since: row?.first_failure_at ?? null,
    lastFailureAt: row?.last_failure_at ?? null,
    lastError: row?.last_error ?? null,
    outboxOnly: !env().smtpUrl,
  };
}
