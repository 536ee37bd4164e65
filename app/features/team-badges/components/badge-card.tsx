import { useState } from "react";
import { Link } from "react-router";
import { useHydrated } from "~/components/ui/form-parts";
import { badgeImagePath, categoryLabel, safeColour, type TeamBadge } from "../team-badges";
import { copyText } from "~/lib/browser/share";
import { trackEvent } from "~/lib/browser/track";

/** One badge in the grid. `viewHref` opens the detail dialog (?id=). */
export function BadgeCard({ badge, viewHref }: { badge: TeamBadge; viewHref: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState("");
  const titleId = `badge-${badge.id}-title`;
  const copyId = async () => {
    const ok = await copyText(badge.id);
    setCopied(ok ? "Badge ID copied" : "Could not copy: select the ID instead");
    if (ok) trackEvent("badge.copy_id", { id: badge.id });
  };
  return (
    <li
      className={badge.earned ? "badge-card" : "badge-card badge-card-open"}
      style={{ "--badge-colour": safeColour(badge.colour, "#123b5d") } as React.CSSProperties}
      aria-labelledby={titleId}
    >
      <div className="badge-card-head">
        <img
          src={`${badgeImagePath(badge.id)}?w=256`}
          width={112}
          height={112}
          alt=""
          loading="lazy"
          decoding="async"
        />
        <div>
          <span className="pill badge-category">{categoryLabel(badge.category)}</span>
          <h3 id={titleId}>{badge.title}</h3>
          <p className="badge-subtitle">{badge.subtitle}</p>
        </div>
      </div>
      <dl className="facts">
        <dt>Holder</dt>
        <dd>{badge.earned ? badge.ownerName : "Not yet issued"}</dd>
        <dt>Issued</dt>
        <dd>{badge.earned && badge.issuedAt ? badge.issuedAt : "Not yet"}</dd>
        <dt>ID</dt>
        <dd className="badge-id">
          <code>{badge.id}</code>
          {hydrated ? (
            <button type="button" className="button-ghost button-tiny" onClick={copyId}>
              Copy<span className="visually-hidden"> badge ID {badge.id}</span>
            </button>
          ) : null}
          <span className="copy-status" role="status">
            {copied}
          </span>
        </dd>
      </dl>
      <p className="badge-description">{badge.description}</p>
      {!badge.earned ? (
        <p className="badge-progress">
          <label htmlFor={`progress-${badge.id}`}>Progress {badge.progress}%</label>
          <progress id={`progress-${badge.id}`} max={100} value={badge.progress} />
        </p>
      ) : null}
      <p className="badge-card-actions">
        {badge.earned ? (
          <Link to={viewHref} className="button button-small" preventScrollReset>
            View<span className="visually-hidden"> the {badge.title} badge of {badge.ownerName}</span>
          </Link>
        ) : (
          <Link to="/join" className="button button-lamp button-small">
            Work on this<span className="visually-hidden">: {badge.title}, {badge.subtitle}</span>
          </Link>
        )}
      </p>
    </li>
  );
}
