import { useNavigation, type ShouldRevalidateFunction } from "react-router";
import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { badgeOrdersAdminAction, loadBadgeOrdersScreen } from "~/routes/admin/badge-orders-page.server";
import { BadgeOrderFilters } from "~/features/event-badges/admin/badge-order-filters";
import { SCREEN_PATH } from "~/features/event-badges/admin/badge-orders-screen";
import { BadgeOrdersTable } from "~/features/event-badges/admin/badge-orders-table";
import { staffOnly } from "~/features/admin/staff-auth.server";
import type { Route } from "./+types/badge-orders";

export const handle: StaffHandle = { page: "admin", title: "Badge Orders", description: "Review badge order confirmations." };

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, url, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, () => loadBadgeOrdersScreen(request, url, context));
}

export async function action({ request, url, context }: Route.ActionArgs) {
  return badgeOrdersAdminAction(request, url, context);
}

// A row action answers with its order, which replaces the row; reloading the list would drop
// an order that no longer matches the filter before staff see the result. 'Load Orders' reloads.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formAction, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === "POST" && formAction?.startsWith(SCREEN_PATH) ? false : defaultShouldRevalidate;

export default function BadgeOrders({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (!loaderData) return null;
  const loading = navigation.state === "loading" && navigation.location.pathname === SCREEN_PATH;
  return (
    <>
      <BadgeOrderFilters filter={loaderData.filter} loading={loading} found={loaderData.found} />
      <BadgeOrdersTable
        key={loaderData.loadedAt}
        orders={loaderData.orders}
        action={loaderData.actionPath}
        serverReply={actionData}
        filterError={loaderData.filterError}
        loading={loading}
      />
    </>
  );
}
