import { useEffect, useState } from "react";
import type { Reply } from "~/lib/core/forms";
import { Link, useFetcher, useNavigate } from "react-router";
import { useUrlDialog } from "~/components/ui/url-dialog";
import { badgeImagePath, categoryLabel, type TeamBadge } from "../team-badges";
import { copyText } from "~/lib/browser/share";
import { trackEvent } from "~/lib/browser/track";

export type BadgeLinks = {
  shareUrl: string;
  verifyUrl: string;
  linkedInUrl: string;
  whatsAppUrl: string;
  downloadName: string;
};


export const NOT_ISSUED_TEXT =
  "This badge hasn't been issued to a holder yet. Complete the requirements to earn and verify it.";

/**
 * The badge detail dialog (?id=). The server renders it open, so it works as a plain page
 * section without JavaScript; in the browser it becomes a modal (Escape, backdrop and the
 * close button all go back to the list).
 */
export function BadgeDialog({
  badge,
  links,
  closeHref,
  selfHref,
  isAdmin,
  genShareReply,
}: {
  badge: TeamBadge;
  links: BadgeLinks;
  closeHref: string;
  /** This dialog's own address, where the staff form posts. */
  selfHref: string;
  isAdmin: boolean;
  genShareReply?: Reply;
}) {
  const navigate = useNavigate();
  const { ref, hydrated, close, dialogProps } = useUrlDialog(() =>
    navigate(closeHref, { replace: true, preventScrollReset: true }),
  );
  const [status, setStatus] = useState("");
  const fetcher = useFetcher<Reply>();
  const shareReply = fetcher.data ?? genShareReply;

  useEffect(() => trackEvent("badge.view", { id: badge.id }), [badge.id]);
  const copyLink = async () => {
    const how = await copyText(links.shareUrl, ref.current);
    setStatus(
      how === "clipboard"
        ? "Share link copied to clipboard"
        : how === "fallback"
          ? "Share link copied"
          : "Could not copy. Select the share link above and copy it.",
    );
    if (how) trackEvent("badge.copy_link", { id: badge.id });
  };

  return (
    <dialog {...dialogProps} className="badge-dialog" aria-labelledby="badge-dialog-title">
      <div className="badge-dialog-body">
        <Link to={closeHref} replace preventScrollReset className="badge-dialog-close" onClick={close}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">Close</span>
        </Link>
        <img
          className="badge-dialog-image"
          src={`${badgeImagePath(badge.id)}?w=512`}
          width={280}
          height={280}
          alt={badge.earned ? `${badge.title} badge issued to ${badge.ownerName}` : `${badge.title} badge, not yet issued`}
        />
        <span className="pill badge-category">{categoryLabel(badge.category)}</span>
        <h2 id="badge-dialog-title">{badge.title}</h2>
        <p className="badge-subtitle">{badge.subtitle}</p>
        {badge.earned ? (
          <>
            <dl className="facts">
              <dt>Holder</dt>
              <dd>{badge.ownerName}</dd>
              <dt>Issued</dt>
              <dd>{badge.issuedAt}</dd>
              <dt>Badge ID</dt>
              <dd>
                <code>{badge.id}</code>
              </dd>
            </dl>
            <p>{badge.description}</p>
            <div className="badge-dialog-actions">
              <a
                className="button"
                href={badgeImagePath(badge.id)}
                download={links.downloadName}
                onClick={() => trackEvent("badge.download", { id: badge.id })}
              >
                Download Badge
              </a>
              <a
                className="button button-ghost"
                href={links.linkedInUrl}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => trackEvent("badge.share.linkedin", { id: badge.id })}
              >
                Share to LinkedIn<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
              {hydrated ? (
                <button type="button" className="button-ghost" onClick={copyLink}>
                  Copy Link
                </button>
              ) : null}
              <a
                className="button button-ghost"
                href={links.whatsAppUrl}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => trackEvent("badge.share.whatsapp", { id: badge.id })}
              >
                WhatsApp<span className="visually-hidden"> (share, opens in a new tab)</span>
              </a>
            </div>
            <p className="share-link">
              <label htmlFor="badge-share-link">Share link</label>
              <input
                id="badge-share-link"
                type="url"
                readOnly
                value={links.shareUrl}
                onFocus={(e) => e.currentTarget.select()}
              />
            </p>
            <p className="copy-status" role="status" aria-live="polite">
              {status}
            </p>
            {isAdmin ? (
              <fetcher.Form method="post" action={selfHref} className="staff-share">
                <input type="hidden" name="intent" value="gen-share" />
                <input type="hidden" name="id" value={badge.id} />
                <button type="submit" className="button-ghost button-small" disabled={fetcher.state !== "idle"}>
                  Gen Share File
                </button>
                <span role="status" className={shareReply ? (shareReply.status === "success" ? "ok" : "err") : undefined}>
                  {shareReply?.message ?? ""}
                </span>
              </fetcher.Form>
            ) : null}
          </>
        ) : (
          <>
            <p className="not-issued">{NOT_ISSUED_TEXT}</p>
            <p>{badge.description}</p>
            <p className="badge-progress">
              <label htmlFor="dialog-progress">Progress {badge.progress}%</label>
              <progress id="dialog-progress" max={100} value={badge.progress} />
            </p>
            <p className="actions">
              <Link to="/join" className="button button-lamp">
                Work on this
              </Link>
            </p>
          </>
        )}
      </div>
    </dialog>
  );
}
