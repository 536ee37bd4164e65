import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { TeamBadgesEditor } from "~/features/team-badges/components/team-badges-editor";
import { listTeamBadgesForStaff } from "~/features/team-badges/team-badges.server";
import { staffOnly } from "~/features/admin/staff-auth.server";
import { teamBadgesAction } from "./team-badges-page.server";
import type { Route } from "./+types/team-badges";

export const handle: StaffHandle = {
  page: "admin.team-badges",
  title: "Team badges",
  description: "Holders, holder emails and issue dates of earned team badges; revoke or restore a badge.",
};

export const meta: Route.MetaFunction = (args) => staffMeta(args, handle);

export async function loader({ request, context }: Route.LoaderArgs) {
  return staffOnly(context.db, request, async () => ({ badges: await listTeamBadgesForStaff(context.db) }));
}

export async function action({ request, context }: Route.ActionArgs) {
  return teamBadgesAction(request, context);
}

export default function AdminTeamBadges({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData) return null;
  return <TeamBadgesEditor badges={loaderData.badges} reply={actionData} />;
}
