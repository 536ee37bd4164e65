import { Form, Link } from "react-router";
import type { Reply } from "~/lib/core/forms";
import { formatDateInWords } from "~/lib/core/nairobi-time";
import { obPaths } from "../../badge-art/open-badge-paths";
import type { TeamBadgeAdminRow } from "../team-badges";
import { CreateTeamBadgeForm, TeamBadgeDetailsForm, TeamBadgeLinks, UnissuedTeamBadges } from "./team-badge-forms";

export const TEAM_BADGES_EDITOR_PATH = "/admin/team-badges";

export type TeamBadgeEditResult = { id: string };

/**
 * Earned team badges, one card each: the holder, their email (so the Open Badges assertion can
 * name them, hashed) and the issue date; revoke with a reason, or make valid again. Plain forms:
 * every change works without JavaScript and answers beside the badge it changed.
 */
export function TeamBadgesEditor({ badges, reply }: { badges: TeamBadgeAdminRow[]; reply: Reply<TeamBadgeEditResult> | undefined }) {
  const earned = badges.filter((b) => b.earned);
  return (
    <div className="team-badge-editor">
      <p className="muted">
        {earned.length} earned team badges. A holder's email is never shown: verifiers see only its hash in the badge's{" "}
        <a href={obPaths.issuer}>Open Badges</a> record. Without an email, the badge's public verify page stands for the holder.
      </p>
      <CreateTeamBadgeForm reply={reply} />
      {earned.map((b) => {
        const mine = reply?.result?.id === b.id ? reply : undefined;
        const typed = mine?.status === "error" ? mine.values : undefined;
        return (
          <section key={b.id} id={`team-badge-${b.id}`} className="form-card team-badge-edit" aria-labelledby={`tb-${b.id}`}>
            <h2 id={`tb-${b.id}`}>
              {b.title} <code>{b.id}</code>
            </h2>
            <p className="small">
              {b.revoked ? (
                <strong className="row-note-error">
                  Revoked {formatDateInWords(b.revoked.at)}: {b.revoked.reason}
                </strong>
              ) : (
                "Valid"
              )}{" "}
              · <Link to={obPaths.verify(b.id)}>Verify page</Link>
            </p>
            {mine ? (
              <p className={`row-note row-note-${mine.status}`} role={mine.status === "error" ? "alert" : "status"}>
                {mine.message}
              </p>
            ) : null}
            <Form method="post" action={`${TEAM_BADGES_EDITOR_PATH}#team-badge-${b.id}`} className="team-badge-holder">
              <input type="hidden" name="id" value={b.id} />
              <label htmlFor={`${b.id}-owner`}>Holder</label>
              <input id={`${b.id}-owner`} name="ownerName" type="text" defaultValue={typed?.ownerName ?? b.ownerName} required maxLength={80} />
              <label htmlFor={`${b.id}-email`}>Holder's email (optional)</label>
              <input id={`${b.id}-email`} name="holderEmail" type="email" defaultValue={typed?.holderEmail ?? b.holderEmail} maxLength={254} />
              <label htmlFor={`${b.id}-issued`}>Issue date</label>
              <input id={`${b.id}-issued`} name="issuedAt" type="text" defaultValue={typed?.issuedAt ?? b.issuedAt} required maxLength={40} placeholder="12 Mar 2025" />
              <button type="submit" name="intent" value="holder" className="button-small">
                Save
              </button>
            </Form>
            {b.revoked ? (
              <Form method="post" action={`${TEAM_BADGES_EDITOR_PATH}#team-badge-${b.id}`}>
                <input type="hidden" name="id" value={b.id} />
                <button type="submit" name="intent" value="restore" className="button-ghost button-small">
                  Make valid again
                </button>
              </Form>
            ) : (
              <details className="order-revoke">
                <summary>Revoke badge</summary>
                <Form method="post" action={`${TEAM_BADGES_EDITOR_PATH}#team-badge-${b.id}`}>
                  <input type="hidden" name="id" value={b.id} />
                  <label htmlFor={`${b.id}-reason`}>Reason (shown to anyone who verifies it)</label>
                  <textarea id={`${b.id}-reason`} name="reason" rows={2} maxLength={300} required />
                  <button type="submit" name="intent" value="revoke" className="button-small button-reject">
                    Revoke badge
                  </button>
                </Form>
              </details>
            )}
            <TeamBadgeLinks badge={b} />
            <TeamBadgeDetailsForm badge={b} reply={mine} />
          </section>
        );
      })}
      <UnissuedTeamBadges badges={badges.filter((b) => !b.earned)} reply={reply} />
    </div>
  );
}
