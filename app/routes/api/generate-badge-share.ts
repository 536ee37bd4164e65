import { GenerateBadgeShareSchema } from "~/features/team-badges/team-badges.schema";
import { staff } from "~/lib/core/actor";
import { generateBadgeShare } from "~/features/team-badges/team-badges.server";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { parseOr400 } from "~/lib/forms/submission.server";
import { clientAddress, readObjectBody } from "~/lib/http/http.server";

/** Staff: store a team badge's share page fields. Legacy clients read the answer as text. */
const api = jsonApi({
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const input = parseOr400(GenerateBadgeShareSchema, await readObjectBody(request));
    const share = await generateBadgeShare(context.db, input, staff(clientAddress(context)));
    return new Response(`Share file generated: ${share.path}`, {
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  },
});
export const loader = api.loader;
export const action = api.action;
