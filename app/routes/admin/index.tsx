import { Form, Link, useNavigate, useRouteLoaderData } from "react-router";
import { ConfirmBox } from "~/components/ui/confirm-box";
import { loadStaffHome, staffSessionAction } from "~/routes/admin/staff.server";
import { AdminSignIn } from "~/features/admin/components/admin-sign-in";
import { STAFF_HOME, STAFF_SCREENS, staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { staffOnly } from "~/features/admin/staff-auth.server";
import { formatNairobiTime } from "~/lib/core/nairobi-time";
import type { loader as shellLoader } from "./layout";
import { MailCounts, MailNotices } from "~/features/admin/components/mail-state";
import { PaymentArrivalsBox } from "~/features/received-payments/components/payment-arrivals";
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
  const navigate = useNavigate();
  if (!loaderData) {
    const returnTo = actionData?.result?.returnTo ?? (shell && !shell.signedIn ? shell.returnTo : STAFF_HOME);
    return (
      <div className="narrow">
        <AdminSignIn returnTo={returnTo} error={actionData?.message} />
      </div>
    );
  }
  const asking = actionData?.result?.confirm === "sign-out-everywhere" ? actionData.result.returnTo : null;
  return (
    <>
      <MailNotices health={loaderData.mailHealth} notSent={loaderData.mailNotSent} />
      {asking !== null ? (
        // 'Sign out everywhere' asks first, saying what it does; 'Cancel' goes back to the screen it came from.
        <Form method="post" action={STAFF_HOME} className="form-card sign-out-everywhere">
          <ConfirmBox
            id="sign-out-everywhere"
            question={actionData?.message}
            yes={{ name: "intent", value: "sign-out-everywhere", label: "Yes, sign out everywhere", className: "button-small button-reject-now" }}
            cancelHref={asking}
            onCancel={() => navigate(asking)}
            busy={false}
          >
            <p>
              This signs out every phone and computer signed in with the admin key, door phones too, and this one. Each must type the
              key again to carry on. Use it when a device is lost or the key may have been seen by someone else.
            </p>
            <p className="small">To leave only this device, use Sign out.</p>
            <input type="hidden" name="confirmed" value="yes" />
          </ConfirmBox>
        </Form>
      ) : null}
      <ul className="grid admin-screens">
        {STAFF_SCREENS.filter((s) => s.to !== STAFF_HOME).map((s) => (
          <li key={s.to} className="card">
            <Link to={s.to}>{s.label}</Link>
          </li>
        ))}
      </ul>
      <h2>Mail</h2>
      <MailCounts counts={loaderData.mail} />
      <h2>Payments</h2>
      <PaymentArrivalsBox arrivals={loaderData.arrivals} />
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
