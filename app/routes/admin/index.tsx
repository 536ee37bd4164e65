import { Link, useRouteLoaderData } from "react-router";
import { loadStaffHome, staffSessionAction } from "~/routes/admin/staff.server";
import { AdminSignIn } from "~/features/admin/components/admin-sign-in";
import { STAFF_HOME, STAFF_SCREENS, staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { staffOnly } from "~/lib/admin.server";
import { formatNairobiTime } from "~/lib/nairobi-time";
import type { loader as shellLoader } from "./layout";
import type { Route } from "./+types/index";

// The one staff screen that draws the sign-in form itself: a wrong key's answer lands here.
export const handle: StaffHandle = { page: "admin", title: "Staff", description: "Staff tools.", signIn: true };

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, () => loadStaffHome(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  return staffSessionAction(request, context);
}

export default function AdminHome({ loaderData, actionData }: Route.ComponentProps) {
  const shell = useRouteLoaderData<typeof shellLoader>("routes/admin/layout");
  if (!loaderData) {
    const returnTo = actionData?.result?.returnTo ?? (shell && !shell.signedIn ? shell.returnTo : STAFF_HOME);
    return (
      <div className="narrow">
        <AdminSignIn returnTo={returnTo} error={actionData?.message} />
      </div>
    );
  }
  return (
    <>
      <ul className="grid admin-screens">
        {STAFF_SCREENS.filter((s) => s.to !== STAFF_HOME).map((s) => (
          <li key={s.to} className="card">
            <Link to={s.to}>{s.label}</Link>
          </li>
        ))}
      </ul>
      <h2>Mail</h2>
      <p>
        Queued: {loaderData.mail.queued ?? 0} · Sent: {loaderData.mail.sent ?? 0} · Failed: {loaderData.mail.failed ?? 0}
      </p>
      <h2>Recent activity</h2>
      {loaderData.activity.length === 0 ? (
        <p>No activity yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Time (EAT)</th>
                <th scope="col">Type</th>
                <th scope="col">Message</th>
                <th scope="col">Address</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.activity.map((a, i) => (
                <tr key={i}>
                  <td data-label="Time">
                    <time dateTime={a.ts}>{formatNairobiTime(a.ts)}</time>
                  </td>
                  <td data-label="Type">{a.type}</td>
                  <td data-label="Message">{a.message}</td>
                  <td data-label="Address">{a.actorIp}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
