import { Link, useActionData } from "react-router";
import { listActivity } from "~/features/activity/activity.server";
import { adminSessionAction, outboxSummary } from "~/features/admin/admin.server";
import { AdminSignIn, AdminSignOut } from "~/features/admin/components/admin-sign-in";
import { isAdminSession } from "~/lib/admin.server";
import { getDb } from "~/lib/db.server";
import { safeReturnPath } from "~/lib/http.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";

export const handle = { page: "admin" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Staff", description: "Staff tools.", path: "/admin", noindex: true });

export async function loader({ request }: Route.LoaderArgs) {
  const returnTo = safeReturnPath(new URL(request.url).searchParams.get("returnTo") ?? "/admin");
  if (!(await isAdminSession(request))) return { signedIn: false as const, returnTo };
  const db = await getDb();
  return {
    signedIn: true as const,
    returnTo,
    activity: (await listActivity(db, { limit: 20 })).reverse(),
    mail: await outboxSummary(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return adminSessionAction(request, context);
}

const screens = [
  { to: "/admin/badge-orders", label: "Badge orders" },
  { to: "/admin/merch-orders", label: "Merch orders" },
  { to: "/blogs/admin", label: "Blog editor" },
  { to: "/merchandise/admin", label: "Merchandise editor" },
  { to: "/admin/activity", label: "Activity & analytics" },
  { to: "/admin/engagement", label: "Engagement" },
];

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  const reply = useActionData<typeof action>();
  if (!loaderData.signedIn) {
    return (
      <section className="section">
        <div className="container narrow">
          <h1>Staff</h1>
          <AdminSignIn returnTo={loaderData.returnTo} error={reply?.error} />
        </div>
      </section>
    );
  }
  return (
    <section className="section">
      <div className="container">
        <div className="admin-bar">
          <h1>Staff</h1>
          <AdminSignOut />
        </div>
        <ul className="grid admin-screens">
          {screens.map((s) => (
            <li key={s.to} className="card">
              <Link to={s.to}>{s.label}</Link>
            </li>
          ))}
        </ul>
        <h2>Mail</h2>
        <p>
          Queued: {loaderData.mail.queued ?? 0} · Sent: {loaderData.mail.sent ?? 0} · Failed:{" "}
          {loaderData.mail.failed ?? 0}
        </p>
        <h2>Recent activity</h2>
        {loaderData.activity.length === 0 ? (
          <p>No activity yet.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Time (UTC)</th>
                  <th>Type</th>
                  <th>Message</th>
                  <th>Address</th>
                </tr>
              </thead>
              <tbody>
                {loaderData.activity.map((a, i) => (
                  <tr key={i}>
                    <td>{a.ts.replace("T", " ").slice(0, 19)}</td>
                    <td>{a.type}</td>
                    <td>{a.message}</td>
                    <td>{a.actorIp}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
