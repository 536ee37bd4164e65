import { useNavigation } from "react-router";
import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { ACTIVITY_PATH, sinceLabel } from "~/features/analytics/activity-screen";
import { loadActivityScreen } from "~/features/analytics/activity-screen.server";
import { ActiveNow, Kpi, PeriodForm } from "~/features/analytics/components/activity-controls";
import { ActivityLog } from "~/features/analytics/components/activity-log";
import { DailyViewsChart } from "~/features/analytics/components/daily-views-chart";
import { TopReferrers } from "~/features/analytics/components/referrers";
import { ViewsTable } from "~/features/analytics/components/views-table";
import { staffOnly } from "~/features/admin/staff-auth.server";
import dashboardsCss from "~/styles/dashboards.css?url";
import type { Route } from "./+types/activity";

export const handle: StaffHandle = {
  page: "admin.activity",
  title: "Activity & analytics",
  description: "Site activity and analytics for staff.",
};

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: dashboardsCss }];

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, url, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, () => loadActivityScreen(context.db, url.searchParams));
}

const sum = (rows: { total: number }[] | null) => (rows ? rows.reduce((s, r) => s + r.total, 0) : null);

export default function AdminActivity({ loaderData: d }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (!d) return null;
  const loading = navigation.state === "loading" && navigation.location.pathname === ACTIVITY_PATH;
  const period = sinceLabel(d.params.since);
  const rankBy = d.params.unique ? "unique" : "total";
  return (
    <div className="dashboard" aria-busy={loading || undefined}>
      <p className="dash-intro muted">
        Figures for {period}
        {d.params.unique ? ", ranked by unique visitors" : ""}. Crawlers are not counted; a visitor is a browser&rsquo;s
        random client id.
      </p>
      <PeriodForm params={d.params} error={d.errors.since ?? d.errors.unique} />

      <div className="kpis">
        <ActiveNow params={d.params} total={d.activeNow} error={d.errors.window} />
        <Kpi label="Page views" value={sum(d.pages)} note={period} />
        <Kpi label="Blog views" value={sum(d.blogViews)} note={period} />
        <Kpi label="Events" value={sum(d.events)} note={period} />
      </div>

      <div className="dash-split">
        <section className="dash-card" aria-labelledby="chart-title">
          <h2 id="chart-title">Page views per day</h2>
          {d.chart ? <DailyViewsChart days={d.chart} /> : null}
        </section>
        <section className="dash-card" aria-labelledby="referrers-title">
          <h2 id="referrers-title">Top referrers</h2>
          <TopReferrers rows={d.referrers} period={period} />
        </section>
      </div>

      <section className="dash-card" aria-labelledby="blog-views-title">
        <h2 id="blog-views-title">Blog views</h2>
        <ViewsTable
          caption={`Blog views, ${period}`}
          nameLabel="Slug"
          rows={d.blogViews}
          rankBy={rankBy}
          split
          empty="No blog views in this period."
        />
      </section>

      <div className="dash-grid">
        <section className="dash-card" aria-labelledby="pages-title">
          <h2 id="pages-title">Page views</h2>
          <ViewsTable caption={`Page views, ${period}`} nameLabel="Page" rows={d.pages} rankBy={rankBy} empty="No page views in this period." />
        </section>
        <section className="dash-card" aria-labelledby="events-title">
          <h2 id="events-title">Top events</h2>
          <ViewsTable caption={`Top events, ${period}`} nameLabel="Event" rows={d.events} rankBy={rankBy} empty="No events in this period." />
        </section>
      </div>

      <section className="dash-card" aria-labelledby="activity-title">
        <h2 id="activity-title">Activity log</h2>
        <ActivityLog params={d.params} items={d.activity} types={d.activityTypes} error={d.errors.type} />
      </section>
    </div>
  );
}
