import { useNavigation, type ShouldRevalidateFunction } from "react-router";
import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { loadMerchOrdersScreen, merchOrdersAction } from "~/routes/admin/merch-orders-page.server";
import { ORDERS_PATH } from "~/features/merch/admin/merch-admin-screen";
import { MerchOrderFilters, MerchOrdersList } from "~/features/merch/admin/merch-orders-list";
import { staffOnly } from "~/features/admin/staff-auth.server";
import merchAdminCss from "~/styles/merch-admin.css?url";
import type { Route } from "./+types/merch-orders";

export const handle: StaffHandle = { page: "admin.merch_orders", title: "Merch Orders", description: "Review merchandise orders." };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: merchAdminCss }];

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, url, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, () => loadMerchOrdersScreen(request, url, context));
}

export async function action({ request, url, context }: Route.ActionArgs) {
  return merchOrdersAction(request, url, context);
}

// A card's answer replaces the card; reloading would drop an order that left the filter
// before staff see the result. 'Load orders' reloads.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formAction, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" && formAction?.startsWith(ORDERS_PATH) ? false : defaultShouldRevalidate;

export default function MerchOrders({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (!loaderData) return null;
  const loading = navigation.state === "loading" && navigation.location.pathname === ORDERS_PATH;
  return (
    <div className="merch-admin">
      <MerchOrderFilters q={loaderData.q} payment={loaderData.payment} loading={loading} />
      <MerchOrdersList
        key={loaderData.loadedAt}
        orders={loaderData.orders}
        q={loaderData.q}
        action={loaderData.actionPath}
        serverReply={actionData}
        loadError={loaderData.loadError}
        loading={loading}
      />
    </div>
  );
}
