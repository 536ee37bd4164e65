import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { BadgeTableList } from "~/features/event-badges/components/badge-table-list";
import { hardCopyList } from "~/features/event-badges/check-in.server";
import { getEvent } from "~/features/event-badges/event.server";
import { staffOnly } from "~/features/admin/staff-auth.server";
import type { Route } from "./+types/badge-table";

export const handle: StaffHandle = {
  page: "admin.badge-table",
  title: "Hard-copy badges",
  description: "Approved supporters who asked for a hard-copy badge, by tier, to print for the badge table.",
};

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, async () => {
    const [groups, event] = await Promise.all([hardCopyList(context.db), getEvent(context.db)]);
    return { groups, event };
  });
}

export default function AdminBadgeTable({ loaderData }: Route.ComponentProps) {
  if (!loaderData) return null;
  return <BadgeTableList groups={loaderData.groups} event={loaderData.event} />;
}
