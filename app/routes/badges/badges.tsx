import { data, Link } from "react-router";
import type { Reply } from "~/lib/core/forms";
import { BadgeCard } from "~/features/team-badges/components/badge-card";
import { BadgeDialog } from "~/features/team-badges/components/badge-dialog";
import { BadgeFilters, badgesHref } from "~/features/team-badges/components/badge-filters";
import { VerifyBox } from "~/features/team-badges/components/verify-box";
import { genShareAction } from "~/routes/badges/share-file-form.server";
import { parseBadgeQuery } from "~/features/team-badges/team-badges.schema";
import { badgeLinks, findTeamBadge, listTeamBadges, verifyTeamBadge } from "~/features/team-badges/team-badges.server";
import { isAdminSession } from "~/features/admin/staff-auth.server";
import { intentOf, readSubmission } from "~/lib/forms/submission.server";
import type { Submission } from "~/lib/core/forms";
import { httpErrorOf } from "~/lib/http/http.server";
import { pageMeta } from "~/lib/core/meta";
import badgesCss from "~/styles/badges.css?url";
import type { PageHandle } from "~/features/analytics/page-view";
import type { CacheHandle } from "~/lib/core/page-cache";
import type { Route } from "./+types/badges";

// Staff see more on this page: a staff session is never answered from the cache.
export const handle = { page: "badges", cacheSeconds: 300, personalBy: ["staff"], cacheQuery: ["q", "won", "category", "verify", "id"] } satisfies CacheHandle & PageHandle;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: badgesCss }];

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const b = loaderData?.selected?.badge;
  if (b?.earned) {
    return pageMeta(matches, {
      title: `${b.title}: ${b.ownerName}`,
      description: `${b.ownerName} holds the ${b.title} badge (${b.subtitle}). Badge ID ${b.id}, issued ${b.issuedAt}.`,
      path: `/badges?id=${encodeURIComponent(b.id)}`,
      image: `/open/badges/${b.id}.png`,
    });
  }
  return pageMeta(matches, {
    title: "Team badges",
    description:
      "Browse and verify the badges our volunteers earn serving on the Evangelism, Media, Developer and Community teams, and download or share your own.",
    path: "/badges",
  });
};

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const query = parseBadgeQuery(url.searchParams);
  // ?id= pre-fills the search and the verify box, and opens that badge.
  const searchText = query.q || query.id;
  const verifyText = query.verify || query.id;
  const db = context.db;
  const [badges, verify, selected, isAdmin] = await Promise.all([
    listTeamBadges(db, { q: searchText, wonOnly: query.wonOnly, category: query.category }),
    verifyText ? verifyTeamBadge(db, verifyText) : null,
    query.id ? findTeamBadge(db, query.id) : null,
    isAdminSession(context.db, request),
  ]);
  return {
    query,
    searchText,
    verifyText,
    badges,
    verify,
    selected: selected ? { badge: selected, links: badgeLinks(selected) } : null,
    isAdmin,
  };
}

/** The page's one form, staff only: 'Gen Share File' in the badge dialog, which shows every answer as 'Failed: …'. */
export async function action({ request, context }: Route.ActionArgs) {
  let submission: Submission;
  try {
    submission = await readSubmission(request);
  } catch (e) {
    const refused = httpErrorOf(e);
    if (!refused) throw e;
    return data<Reply<never>>({ status: "error", message: `Failed: ${refused.message}`, intent: "gen-share" }, { status: refused.status, headers: refused.headers });
  }
  const intent = intentOf(submission);
  switch (intent) {
    case "gen-share":
      return genShareAction(request, context, submission);
    default:
      return data<Reply<never>>({ status: "error", message: "Failed: This page does not know that form.", intent }, 400);
  }
}

export default function Badges({ loaderData, actionData }: Route.ComponentProps) {
  const { query, searchText, verifyText, badges, verify, selected, isAdmin } = loaderData;
  return (
    <>
      <section className="hero badges-hero" data-scripts-start="idle">
        <div className="container">
          <p className="eyebrow">Badge programme</p>
          <h1>Team badges</h1>
          <p className="lead">
            Every badge here was earned by serving. Search them, verify one by its ID, and download or share your own.
          </p>
          <div className="badges-notice">
            <p>
              <strong>Supporter badges:</strong> confirm your payment on the Events page and an admin verifies the
              reference. Your badge and a ‘Will Be Attending’ poster are then emailed to you.
            </p>
            <Link to="/event" className="button button-lamp button-small">
              Go to the Events page
            </Link>
          </div>
        </div>
      </section>

      <section className="section badges-section" aria-labelledby="badges-list-title">
        <div className="container">
          <div className="badges-tools">
            <BadgeFilters query={query} searchText={searchText} />
            <VerifyBox query={query} verifyText={verifyText} result={verify} />
          </div>
          <h2 id="badges-list-title" className="badges-count" aria-live="polite">
            {badges.length === 1 ? "1 badge" : `${badges.length} badges`}
          </h2>
          {badges.length === 0 ? (
            <p className="badges-empty">No badges found</p>
          ) : (
            <ul className="badge-grid">
              {badges.map((b) => (
                <BadgeCard key={b.id} badge={b} viewHref={badgesHref(query, { id: b.id })} />
              ))}
            </ul>
          )}
        </div>
      </section>

      {selected ? (
        <BadgeDialog
          key={selected.badge.id}
          badge={selected.badge}
          links={selected.links}
          closeHref={badgesHref(query, { id: "" })}
          selfHref={badgesHref(query, { id: selected.badge.id })}
          isAdmin={isAdmin}
          genShareReply={actionData}
        />
      ) : null}
    </>
  );
}
