import { isRouteErrorResponse, useRouteError } from "react-router";
import { ErrorBanner } from "~/components/ui/error-banner";
import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { PollForm, PollList } from "~/features/engagement/components/polls";
import { ReactionsTable } from "~/features/engagement/components/reactions-table";
import { SubscribersTable } from "~/features/engagement/components/subscribers-table";
import { ENGAGEMENT_MESSAGES } from "~/features/engagement/engagement-screen";
import { ensurePollAction, loadEngagementScreen } from "~/routes/admin/engagement-page.server";
import { staffOnly } from "~/features/admin/staff-auth.server";
import dashboardsCss from "~/styles/dashboards.css?url";
import type { Route } from "./+types/engagement";

export const handle: StaffHandle = { page: "admin.engagement", title: "Engagement", description: "Reactions, polls and subscribers." };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: dashboardsCss }];

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, () => loadEngagementScreen(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  return ensurePollAction(request, context);
}

export default function AdminEngagement({ loaderData: d, actionData }: Route.ComponentProps) {
  if (!d) return null;
  return (
    <div className="dashboard">
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
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  // A refused request keeps its own words (a cross-site post, say); anything else could not load.
  const text = isRouteErrorResponse(error) && error.status < 500 && typeof error.data === "string" ? error.data : ENGAGEMENT_MESSAGES.loadFailed;
  return <ErrorBanner block message={text} />;
}
