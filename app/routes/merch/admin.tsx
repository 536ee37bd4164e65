import { Link } from "react-router";
import { AdminSignIn, AdminSignOut } from "~/features/admin/components/admin-sign-in";
import { loadMerchEditorScreen, merchEditorAction } from "~/features/merch/admin/merch-admin.server";
import { EDITOR_PATH, ORDERS_PATH } from "~/features/merch/admin/merch-admin-screen";
import { MerchItemEditor } from "~/features/merch/admin/merch-item-editor";
import { pageMeta } from "~/lib/meta";
import adminCss from "~/styles/admin.css?url";
import merchAdminCss from "~/styles/merch-admin.css?url";
import type { Route } from "./+types/admin";

export const handle = { page: "merch.admin" };

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: adminCss },
  { rel: "stylesheet", href: merchAdminCss },
];

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Merchandise editor", description: "Edit the store's items.", path: EDITOR_PATH, noindex: true });

export async function loader({ request }: Route.LoaderArgs) {
  return loadMerchEditorScreen(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return merchEditorAction(request, context);
}

export default function MerchAdmin({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="section admin-screen merch-admin">
      <div className="container">
        <p className="admin-crumb">
          <Link to="/admin">Staff</Link>
        </p>
        <div className="admin-bar">
          <h1>Merchandise</h1>
          {loaderData.signedIn ? <AdminSignOut /> : null}
        </div>
        {loaderData.signedIn ? (
          <>
            <nav aria-label="Store tools" className="admin-links">
              <Link to={ORDERS_PATH}>Merch orders</Link>
              <Link to="/blogs/admin">Blog editor</Link>
              <Link to="/merchandise">View the store</Link>
            </nav>
            {/* A new version (a save) mounts the form afresh; a refused save keeps what was typed. */}
            <MerchItemEditor key={loaderData.version} rows={actionData?.rows ?? loaderData.rows} reply={actionData} />
          </>
        ) : (
          <div className="narrow">
            <AdminSignIn returnTo={loaderData.returnTo} />
          </div>
        )}
      </div>
    </section>
  );
}
