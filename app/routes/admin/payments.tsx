import { useNavigation } from "react-router";
import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { PaymentsScreen } from "~/features/reconciliation/components/payments-screen";
import { PAYMENTS_PATH } from "~/features/reconciliation/payments-screen";
import { staffOnly } from "~/features/admin/staff-auth.server";
import { loadPaymentsScreen, paymentsAction } from "./payments.server";
import type { Route } from "./+types/payments";

export const handle: StaffHandle = {
  page: "admin.payments",
  title: "M-Pesa payments",
  description: "Payments received on the paybill, unclaimed payments, mismatches and statement imports.",
};

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, () => loadPaymentsScreen(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  return paymentsAction(request, context);
}

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if (!loaderData) return null;
  const busy = navigation.state === "submitting" && navigation.formAction === PAYMENTS_PATH;
  return <PaymentsScreen data={loaderData} reply={actionData} busy={busy} />;
}
