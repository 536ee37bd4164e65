import { formatNairobiTimeEat } from "~/lib/core/nairobi-time";
import { WRITTEN_TO_OUTBOX } from "~/lib/core/mail-words";

/** The mail facts the staff home reads (mail-health.server.ts), as the loader hands them over. */
type Health = { failing: boolean; failuresInRow: number; since: string | null; lastError: string | null };

/** At the top of /admin: mail that does not leave the machine, or a mail server that keeps failing. */
export function MailNotices({ health, notSent }: { health: Health; notSent: boolean }) {
  return (
    <>
      {notSent ? (
        <p className="admin-message admin-message-error" role="alert" data-notice="mail-not-sent">
          Mail is not being sent: SMTP_URL is not set, so every email is only written to the outbox folder on the server and no
          supporter receives it. Set SMTP_URL and restart.
        </p>
      ) : null}
      {health.failing ? (
        <p className="admin-message admin-message-error" role="alert" data-notice="mail-failing">
          Mail is failing: the last {health.failuresInRow} attempts to reach the mail server failed
          {health.since ? ` (since ${formatNairobiTimeEat(health.since)})` : ""} and nothing has been sent since. Messages wait and
          are retried.{health.lastError ? ` Last error: ${health.lastError}` : ""}
        </p>
      ) : null}
    </>
  );
}

/** The outbox counted by state: a message written to the folder is never counted as sent. */
export function MailCounts({ counts }: { counts: Record<string, number> }) {
  return (
    <p className="mail-counts">
      Queued: {(counts.queued ?? 0) + (counts.sending ?? 0)} · Sent: {counts.sent ?? 0}
      {counts.written ? ` · ${WRITTEN_TO_OUTBOX}: ${counts.written}` : ""} · Failed: {counts.failed ?? 0}
    </p>
  );
}
