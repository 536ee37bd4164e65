import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { AdminSignIn, AdminSignOut } from "~/features/admin/components/admin-sign-in";
import { PollForm, PollList } from "~/features/engagement/components/polls";
import { ReactionsTable } from "~/features/engagement/components/reactions-table";
import { SubscribersTable } from "~/features/engagement/components/subscribers-table";
import { ENGAGEMENT_MESSAGES, ENGAGEMENT_PATH } from "~/features/engagement/engagement-screen";
import { ensurePollAction, loadEngagementScreen } from "~/features/engagement/engagement.server";
import { pageMeta } from "~/lib/meta";
import adminCss from "~/styles/admin.css?url";
import dashboardsCss from "~/styles/dashboards.css?url";
import type { Route } from "./+types/engagement";

export const handle = { page: "admin.engagement" };

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: adminCss },
  { rel: "stylesheet", href: dashboardsCss },
];

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Engagement", description: "Reactions, polls and subscribers.", path: ENGAGEMENT_PATH, noindex: true });

export async function loader({ request }: Route.LoaderArgs) {
  return loadEngagementScreen(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return ensurePollAction(request, context);
}

export default function AdminEngagement({ loaderData: d, actionData }: Route.ComponentProps) {
  if (!d.signedIn) {
    return (
      <section className="section admin-screen">
        <div className="container narrow">
          <h1>Engagement</h1>
          <AdminSignIn returnTo={d.returnTo} />
        </div>
      </section>
    );
  }
  return (
    <section className="section admin-screen dashboard">
      <div className="container">
        <p className="admin-crumb">
          <Link to="/admin">Staff</Link>
        </p>
        <div className="admin-bar">
          <h1>Engagement</h1>
          <AdminSignOut />
        </div>
        <section className="dash-card" aria-labelledby="reactions-title">
          <h2 id="reactions-title">Reactions</h2>
          <ReactionsTable block={d.reactions} />
        </section>
        <section className="dash-card" aria-labelledby="polls-title">
          <h2 id="polls-title">Polls</h2>
          <div className="poll-layout">
            <PollForm reply={actionData} />
            <PollList block={d.polls} />
          </div>
        </section>
        <section className="dash-card" aria-labelledby="subscribers-title">
          <h2 id="subscribers-title">Subscribers</h2>
          <SubscribersTable block={d.subscribers} />
        </section>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  // A refused request keeps its own words (a cross-site post, say); anything else could not load.
  const text = isRouteErrorResponse(error) && error.status < 500 && typeof error.data === "string" ? error.data : ENGAGEMENT_MESSAGES.loadFailed;
  return (
    <section className="section admin-screen">
      <div className="container narrow">
        <p className="admin-crumb">
          <Link to="/admin">Staff</Link>
        </p>
        <h1>Engagement</h1>
        <p className="block-error" role="alert">
          {text}
        </p>
      </div>
    </section>
  );
}
