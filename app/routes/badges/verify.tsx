import { data, Link } from "react-router";
import { VerifyResult } from "~/features/open-badges/components/verify-result";
import { VerifyForms } from "~/features/open-badges/components/verify-forms";
import { obPaths } from "~/features/badge-art/open-badge-paths";
import { linkedInFields } from "~/features/open-badges/open-badges";
import { findAward } from "~/features/open-badges/open-badges.server";
import { env } from "~/lib/server/env.server";
import { pageMeta } from "~/lib/core/meta";
import badgesCss from "~/styles/badges.css?url";
import type { CacheHandle } from "~/lib/core/page-cache";
import type { PageHandle } from "~/features/analytics/page-view";
import type { Route } from "./+types/verify";

// The same for everyone (no one's private data): served from the page cache, and forgotten at
// once when a badge is revoked, restored or edited (the "/badges" scope).
export const handle = { page: "badges.verify", cacheSeconds: 300 } satisfies CacheHandle & PageHandle;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: badgesCss }];

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) =>
  pageMeta(matches, {
    title: loaderData?.award ? `Verify ${loaderData.award.className} (${loaderData.award.id})` : "Badge not found",
    description: loaderData?.award ? `${loaderData.award.revoked ? "Revoked" : "Valid"}: ${loaderData.award.className}, issued by the organisation.` : "No badge with that ID.",
    path: obPaths.verify(params.id ?? ""),
    ...(loaderData?.award ? { image: obPaths.card(loaderData.award.id) } : {}),
    noindex: !loaderData?.award,
  });

/** /badges/verify/{id}: Valid, Revoked or Not found (404), server-rendered. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const award = await findAward(context.db, params.id ?? "");
  const linkedIn = award ? linkedInFields(award, `${env().publicUrl}${obPaths.verify(award.id)}`) : null;
  return data({ award, linkedIn, id: (params.id ?? "").slice(0, 60) }, { status: award ? 200 : 404, headers: { "Cache-Control": "public, max-age=60" } });
}

export default function VerifyPage({ loaderData }: Route.ComponentProps) {
  const { award, linkedIn, id } = loaderData;
  return (
    <section className="section">
      <div className="container narrow">
        <p className="eyebrow">Badge verification</p>
        <h1>{award ? award.className : "Not found"}</h1>
        {award ? (
          <VerifyResult award={award} linkedIn={linkedIn} />
        ) : (
          <div className="verify-result verify-missing" role="status">
            <p className="verify-verdict">Not found</p>
            <p>No badge with the ID '{id}' was issued by us. Check the ID, or ask the holder for the badge's own link.</p>
          </div>
        )}
        <VerifyForms />
        <p>
          <Link to="/badges">All team badges</Link>
        </p>
      </div>
    </section>
  );
}
