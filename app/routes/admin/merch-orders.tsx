import { Link, useNavigation, type ShouldRevalidateFunction } from "react-router";
import { AdminSignIn, AdminSignOut } from "~/features/admin/components/admin-sign-in";
import { loadMerchOrdersScreen, merchOrdersAction } from "~/features/merch/admin/merch-admin.server";
import { EDITOR_PATH, ORDERS_PATH } from "~/features/merch/admin/merch-admin-screen";
import { MerchOrderFilters, MerchOrdersList } from "~/features/merch/admin/merch-orders-list";
import { pageMeta } from "~/lib/meta";
import adminCss from "~/styles/admin.css?url";
import merchAdminCss from "~/styles/merch-admin.css?url";
import type { Route } from "./+types/merch-orders";

export const handle = { page: "admin.merch_orders" };

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: adminCss },
  { rel: "stylesheet", href: merchAdminCss },
];

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Merch Orders", description: "Review merchandise orders.", path: ORDERS_PATH, noindex: true });

export async function loader({ request }: Route.LoaderArgs) {
  return loadMerchOrdersScreen(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return merchOrdersAction(request, context);
}

// A card's answer replaces the card; reloading would drop an order that left the filter
// before staff see the result. 'Load orders' reloads.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formAction, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" && formAction?.startsWith(ORDERS_PATH) ? false : defaultShouldRevalidate;

export default function MerchOrders({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === ORDERS_PATH;
  return (
    <section className="section admin-screen merch-admin">
      <div className="container">
        <p className="admin-crumb">
          <Link to="/admin">Staff</Link>
        </p>
        <div className="admin-bar">
          <h1>Merch Orders</h1>
          {loaderData.signedIn ? <AdminSignOut /> : null}
        </div>
        {loaderData.signedIn ? (
          <>
            <nav aria-label="Store tools" className="admin-links">
              <Link to={EDITOR_PATH}>Merchandise editor</Link>
              <Link to="/blogs/admin">Blog editor</Link>
            </nav>
            <MerchOrderFilters q={loaderData.q} loading={loading} />
            <MerchOrdersList
              key={loaderData.loadedAt}
              orders={loaderData.orders}
              q={loaderData.q}
              action={loaderData.actionPath}
              serverReply={actionData}
              loadError={loaderData.loadError}
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
