import { Link } from "react-router";
import type { PageHandle } from "~/features/analytics/page-view";
import type { HydrationHandle } from "~/lib/core/hydration";
import { tierStyle } from "~/features/event-badges/components/tier-grid";
import { findTier } from "~/features/event-badges/tiers";
import { DEFAULT_EVENT } from "~/features/event-badges/event";
import { getEvent } from "~/features/event-badges/event.server";
import { listWall } from "~/features/event-badges/wall.server";
import type { CacheHandle } from "~/lib/core/page-cache";
import { pageMeta } from "~/lib/core/meta";
import eventCss from "~/styles/event.css?url";
import type { Route } from "./+types/supporters";

// The same for everyone; an approval, a rejection or staff hiding someone redraws it at once.
export const handle = { hydrate: false, page: "event.supporters", cacheSeconds: 300 } satisfies CacheHandle & PageHandle & HydrationHandle;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: eventCss }];

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: "Supporter wall",
    description: `The supporters of the ${(loaderData?.event ?? DEFAULT_EVENT).title} who chose to be named here.`,
    path: "/event/supporters",
  });

export async function loader({ context }: Route.LoaderArgs) {
  const [supporters, event] = await Promise.all([listWall(context.db), getEvent(context.db)]);
  return { supporters, event };
}

export default function SupportersPage({ loaderData }: Route.ComponentProps) {
  const { supporters, event } = loaderData;
  return (
    <section className="section">
      <div className="container">
        <p className="eyebrow">{event.title}</p>
        <h1>Supporter wall</h1>
        <p className="lead">
          Supporters who chose to be named here, newest first. Thank you, every one of you. <Link to="/event">Get your badge</Link> and
          tick 'Show my name on the supporter wall' to join them.
        </p>
        {supporters.length === 0 ? (
          <p className="wall-empty">No names yet: be the first.</p>
        ) : (
          <ul className="wall" role="list">
            {supporters.map((s, i) => {
              const tier = findTier(s.tierKey);
              return (
                <li key={i} className="wall-entry" style={tier ? tierStyle(tier) : undefined}>
                  {s.portrait ? <img src={s.portrait} width={56} height={56} alt="" loading={i < 8 ? "eager" : "lazy"} decoding="async" /> : null}
                  <span className="wall-name">{s.name}</span>
                  <span className="wall-tier">{s.tierName}</span>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
