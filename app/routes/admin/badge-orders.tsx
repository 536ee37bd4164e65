import { Link, useNavigation, type ShouldRevalidateFunction } from "react-router";
import { AdminSignIn, AdminSignOut } from "~/features/admin/components/admin-sign-in";
import { badgeOrdersAdminAction, loadBadgeOrdersScreen } from "~/features/badges/admin/badge-orders-admin.server";
import { BadgeOrderFilters } from "~/features/badges/admin/badge-order-filters";
import { SCREEN_PATH } from "~/features/badges/admin/badge-orders-screen";
import { BadgeOrdersTable } from "~/features/badges/admin/badge-orders-table";
import { pageMeta } from "~/lib/meta";
import adminCss from "~/styles/admin.css?url";
import type { Route } from "./+types/badge-orders";

export const handle = { page: "admin" };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminCss }];

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Badge Orders", description: "Review badge order confirmations.", path: SCREEN_PATH, noindex: true });

export async function loader({ request }: Route.LoaderArgs) {
  return loadBadgeOrdersScreen(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return badgeOrdersAdminAction(request, context);
}

// A row action answers with its order, which replaces the row; reloading the list would drop
// an order that no longer matches the filter before staff see the result. 'Load Orders' reloads.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formAction, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" && formAction?.startsWith(SCREEN_PATH) ? false : defaultShouldRevalidate;

export default function BadgeOrders({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === SCREEN_PATH;
  return (
    <section className="section admin-screen">
      <div className="container">
        <p className="admin-crumb">
          <Link to="/admin">Staff</Link>
        </p>
        <div className="admin-bar">
          <h1>Badge Orders</h1>
          {loaderData.signedIn ? <AdminSignOut /> : null}
        </div>
        {loaderData.signedIn ? (
          <>
            <BadgeOrderFilters filter={loaderData.filter} loading={loading} />
            <BadgeOrdersTable
              key={loaderData.loadedAt}
              orders={loaderData.orders}
              action={loaderData.actionPath}
              serverReply={actionData}
              filterError={loaderData.filterError}
              loading={loading}
            />
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
