import { data } from "react-router";
import { staffMeta, type StaffHandle } from "~/features/admin/staff-screen";
import { TeamBadgesEditor, TEAM_BADGES_EDITOR_PATH, type TeamBadgeEditResult } from "~/features/team-badges/components/team-badges-editor";
import { BadgeIdSchema, TeamBadgeHolderSchema, TeamBadgeRevokeSchema } from "~/features/team-badges/team-badges.schema";
import { listTeamBadgesForStaff, setTeamBadgeRevoked, updateTeamBadgeHolder } from "~/features/team-badges/team-badges.server";
import { staff } from "~/lib/actor";
import { requireAdminSession, staffOnly } from "~/lib/admin.server";
import type { Reply } from "~/lib/forms";
import { clientAddress, httpErrorOf } from "~/lib/http.server";
import { readForm } from "~/lib/submission.server";
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

const reply = (body: Reply<TeamBadgeEditResult>, status: number) => data(body, status);

export async function action({ request, context }: Route.ActionArgs) {
  let form: FormData;
  try {
    await requireAdminSession(context.db, request, TEAM_BADGES_EDITOR_PATH);
    form = await readForm(request, 8 * 1024);
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) return reply({ status: "error", message: http.message }, http.status);
    throw e;
  }
  const fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string").map(([k, v]) => [k, String(v).slice(0, 400)]));
  const idCheck = BadgeIdSchema.safeParse(fields.id ?? "");
  if (!idCheck.success) return reply({ status: "error", message: idCheck.error.issues[0]?.message ?? "Unknown badge." }, 400);
  const id = idCheck.data;
  const actor = staff(clientAddress(context));
  const result = { id };
  try {
    switch (fields.intent) {
      case "holder": {
        const parsed = TeamBadgeHolderSchema.safeParse(fields);
        if (!parsed.success) return reply({ status: "error", message: parsed.error.issues[0]?.message ?? "Check the fields.", values: fields, result }, 400);
        await updateTeamBadgeHolder(context.db, parsed.data, actor);
        return reply({ status: "success", message: "Saved.", result }, 200);
      }
      case "revoke": {
        const parsed = TeamBadgeRevokeSchema.safeParse(fields);
        if (!parsed.success) return reply({ status: "error", message: parsed.error.issues[0]?.message ?? "Give the reason.", result }, 400);
        await setTeamBadgeRevoked(context.db, id, parsed.data.reason, actor);
        return reply({ status: "success", message: "Revoked: its verify page and Open Badges records now say so.", result }, 200);
      }
      case "restore":
        await setTeamBadgeRevoked(context.db, id, null, actor);
        return reply({ status: "success", message: "Valid again.", result }, 200);
      default:
        return reply({ status: "error", message: "Unknown action.", result }, 400);
    }
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) return reply({ status: "error", message: http.message, result }, http.status);
    throw e;
  }
}

export default function AdminTeamBadges({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData) return null;
  return <TeamBadgesEditor badges={loaderData.badges} reply={actionData} />;
}
