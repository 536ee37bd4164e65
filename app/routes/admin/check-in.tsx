import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { CheckInScreen } from "~/features/event-badges/components/check-in-screen";
import type { CheckInOutcome } from "~/features/event-badges/check-in";
import { staffOnly } from "~/features/admin/staff-auth.server";
import type { Reply } from "~/lib/core/forms";
import { checkInAction, loadCheckInScreen } from "./check-in-page.server";
import type { Route } from "./+types/check-in";

export const handle: StaffHandle = {
  page: "admin.check-in",
  title: "Door check-in",
  description: "Check supporters in at the door: scan their entry QR code, or find them by reference or name.",
};

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

// The one page allowed to use the camera (every other response says camera=()).
export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "no-store",
  "Permissions-Policy": "camera=(self), microphone=(), geolocation=(), interest-cohort=()",
});

export async function loader({ request, url, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, () => loadCheckInScreen(request, url, context));
}

export async function action({ request, context }: Route.ActionArgs) {
  return checkInAction(request, context);
}

export default function AdminCheckIn({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData) return null;
  return <CheckInScreen data={loaderData} reply={actionData as Reply<CheckInOutcome> | undefined} />;
}
