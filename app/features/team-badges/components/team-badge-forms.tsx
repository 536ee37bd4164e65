import { Form, Link } from "react-router";
import type { Reply } from "~/lib/core/forms";
import { formatDateInWords } from "~/lib/core/nairobi-time";
import { CATEGORIES, badgeImagePath, badgeSharePath, badgeVerifyPath, type TeamBadgeAdminRow } from "../team-badges";

/** The create form's answers are marked with this (never a badge id: ids start with a letter or digit). */
export const NEW_BADGE_FORM = "+new";
const EDITOR = "/admin/team-badges";
const PICTURE_ACCEPT = "image/png,image/jpeg,image/webp";
const PICTURE_HINT = "PNG, JPG or WEBP, up to 6 MB; shown square at 1080x1080.";

type Result = { id: string };
const CATEGORY_OPTIONS = CATEGORIES.filter((c) => c.key !== "all");

function ReplyLine({ reply }: { reply: Reply<Result> | undefined }) {
  if (!reply?.message) return null;
  return (
    <p className={`row-note row-note-${reply.status}`} role={reply.status === "error" ? "alert" : "status"}>
      {reply.message}
    </p>
  );
}

/** Title, team, category and description: what a badge says of itself (create and edit). */
function BadgeTextFields({ prefix, values }: { prefix: string; values: Partial<Record<"title" | "subtitle" | "category" | "description", string>> }) {
  return (
    <>
      <label htmlFor={`${prefix}-title`}>Title</label>
      <input id={`${prefix}-title`} name="title" defaultValue={values.title} required maxLength={80} placeholder="Team Lead" />
      <label htmlFor={`${prefix}-subtitle`}>Team (subtitle)</label>
      <input id={`${prefix}-subtitle`} name="subtitle" defaultValue={values.subtitle} maxLength={120} placeholder="Articles and Blogs" />
      <label htmlFor={`${prefix}-category`}>Category</label>
      <select id={`${prefix}-category`} name="category" defaultValue={values.category || "community"}>
        {CATEGORY_OPTIONS.map((c) => (
          <option key={c.key} value={c.key}>
            {c.label}
          </option>
        ))}
      </select>
      <label htmlFor={`${prefix}-description`}>Description</label>
      <textarea id={`${prefix}-description`} name="description" rows={3} defaultValue={values.description} maxLength={600} />
    </>
  );
}

function PictureField({ prefix, label }: { prefix: string; label: string }) {
  return (
    <>
      <label htmlFor={`${prefix}-image`}>{label}</label>
      <input id={`${prefix}-image`} name="image" type="file" accept={PICTURE_ACCEPT} aria-describedby={`${prefix}-image-hint`} />
      <span id={`${prefix}-image-hint`} className="small muted">
        {PICTURE_HINT}
      </span>
    </>
  );
}

/**
 * 'Create a team badge': the id staff choose (the one holders already share, such as b6d56) or
 * none for a new one; its id is fixed from then on. Issued at once to a holder, or open for
 * volunteers to work towards.
 */
export function CreateTeamBadgeForm({ reply }: { reply: Reply<Result> | undefined }) {
  const mine = reply?.result?.id === NEW_BADGE_FORM ? reply : undefined;
  const typed = mine?.values ?? {};
  return (
    <section id="team-badge-new" className="form-card team-badge-edit" aria-labelledby="tb-new">
      <h2 id="tb-new">Create a team badge</h2>
      <ReplyLine reply={mine} />
      <Form method="post" action={`${EDITOR}#team-badge-new`} encType="multipart/form-data" className="team-badge-holder">
        <label htmlFor="new-id">Badge id (optional)</label>
        <input id="new-id" name="id" defaultValue={typed.id} maxLength={40} pattern="[A-Za-z0-9][A-Za-z0-9_\-]{0,39}" aria-describedby="new-id-hint" autoComplete="off" />
        <span id="new-id-hint" className="small muted">
          Give the id holders already share (from the old site, e.g. b6d56), or leave it empty for a new one. It cannot change later.
        </span>
        <BadgeTextFields prefix="new" values={typed} />
        <label className="check">
          <input type="checkbox" name="earned" value="on" defaultChecked={typed.earned === "on"} /> Issued to a holder
        </label>
        <label htmlFor="new-owner">Holder (when issued)</label>
        <input id="new-owner" name="ownerName" defaultValue={typed.ownerName} maxLength={80} />
        <label htmlFor="new-email">Holder's email (optional)</label>
        <input id="new-email" name="holderEmail" type="email" defaultValue={typed.holderEmail} maxLength={254} />
        <label htmlFor="new-issued">Issue date (when issued)</label>
        <input id="new-issued" name="issuedAt" defaultValue={typed.issuedAt} maxLength={40} placeholder="19 Aug 2025" />
        <label htmlFor="new-progress">Progress towards it, % (when not issued)</label>
        <input id="new-progress" name="progress" type="number" min={0} max={100} step={1} defaultValue={typed.progress ?? "0"} />
        <PictureField prefix="new" label="Picture (optional: without one the badge is drawn)" />
        <button type="submit" name="intent" value="create" className="button-small">
          Create badge
        </button>
      </Form>
    </section>
  );
}

/**
 * A badge's own fields (never its id), a new picture, and retiring it: hidden from /badges, its
 * id kept, its shared links and Open Badges record saying it no longer stands.
 */
export function TeamBadgeDetailsForm({ badge: b, reply }: { badge: TeamBadgeAdminRow; reply: Reply<Result> | undefined }) {
  const typed = reply?.status === "error" ? (reply.values ?? {}) : {};
  return (
    <details className="order-revoke">
      <summary>Edit details, picture or retire</summary>
      <Form method="post" action={`${EDITOR}#team-badge-${b.id}`} encType="multipart/form-data" className="team-badge-holder">
        <input type="hidden" name="id" value={b.id} />
        <BadgeTextFields prefix={`${b.id}-d`} values={{ title: typed.title ?? b.title, subtitle: typed.subtitle ?? b.subtitle, category: typed.category ?? b.category, description: typed.description ?? b.description }} />
        {b.earned ? (
          <input type="hidden" name="progress" value="100" />
        ) : (
          <>
            <label htmlFor={`${b.id}-d-progress`}>Progress towards it, %</label>
            <input id={`${b.id}-d-progress`} name="progress" type="number" min={0} max={100} step={1} defaultValue={typed.progress ?? String(b.progress)} />
          </>
        )}
        <PictureField prefix={`${b.id}-d`} label={b.uploadedImage ? "New picture (replaces the uploaded one)" : "Picture (replaces the drawn one)"} />
        <button type="submit" name="intent" value="details" className="button-small">
          Update details
        </button>
      </Form>
      {b.retiredAt ? (
        <Form method="post" action={`${EDITOR}#team-badge-${b.id}`}>
          <input type="hidden" name="id" value={b.id} />
          <button type="submit" name="intent" value="unretire" className="button-ghost button-small">
            Bring back to the badges page
          </button>
        </Form>
      ) : (
        <Form method="post" action={`${EDITOR}#team-badge-${b.id}`} className="team-badge-holder">
          <input type="hidden" name="id" value={b.id} />
          <label htmlFor={`${b.id}-retire-why`}>Why it is retired (optional; verifiers are shown it)</label>
          <textarea id={`${b.id}-retire-why`} name="reason" rows={2} maxLength={300} />
          <button type="submit" name="intent" value="retire" className="button-small button-reject">
            Retire this badge
          </button>
        </Form>
      )}
    </details>
  );
}

/** A badge's public addresses, as holders share them. */
export function TeamBadgeLinks({ badge: b }: { badge: Pick<TeamBadgeAdminRow, "id" | "retiredAt"> }) {
  return (
    <p className="small">
      {b.retiredAt ? <strong className="row-note-error">Retired {formatDateInWords(b.retiredAt)} · </strong> : null}
      <Link to={badgeVerifyPath(b.id)}>On the badges page</Link> · <a href={badgeSharePath(b.id)}>Share page</a> · <a href={badgeImagePath(b.id)}>Picture</a>
    </p>
  );
}

/** Badges not yet issued: their details, and issuing one to a holder. */
export function UnissuedTeamBadges({ badges, reply }: { badges: TeamBadgeAdminRow[]; reply: Reply<Result> | undefined }) {
  if (badges.length === 0) return null;
  return (
    <>
      <h2>Not yet issued ({badges.length})</h2>
      {badges.map((b) => {
        const mine = reply?.result?.id === b.id ? reply : undefined;
        const typed = mine?.status === "error" ? (mine.values ?? {}) : {};
        return (
          <section key={b.id} id={`team-badge-${b.id}`} className="form-card team-badge-edit" aria-labelledby={`tb-${b.id}`}>
            <h2 id={`tb-${b.id}`}>
              {b.title} <code>{b.id}</code>
            </h2>
            <p className="small">
              {b.subtitle} · {b.progress}% towards it
            </p>
            <TeamBadgeLinks badge={b} />
            <ReplyLine reply={mine} />
            <Form method="post" action={`${EDITOR}#team-badge-${b.id}`} className="team-badge-holder">
              <input type="hidden" name="id" value={b.id} />
              <label htmlFor={`${b.id}-owner`}>Holder</label>
              <input id={`${b.id}-owner`} name="ownerName" defaultValue={typed.ownerName} required maxLength={80} />
              <label htmlFor={`${b.id}-email`}>Holder's email (optional)</label>
              <input id={`${b.id}-email`} name="holderEmail" type="email" defaultValue={typed.holderEmail} maxLength={254} />
              <label htmlFor={`${b.id}-issued`}>Issue date</label>
              <input id={`${b.id}-issued`} name="issuedAt" defaultValue={typed.issuedAt} required maxLength={40} placeholder="12 Mar 2025" />
              <button type="submit" name="intent" value="issue" className="button-small">
                Issue badge
              </button>
            </Form>
            <TeamBadgeDetailsForm badge={b} reply={mine} />
          </section>
        );
      })}
    </>
  );
}
