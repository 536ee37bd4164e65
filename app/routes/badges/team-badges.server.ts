import { data, type AppLoadContext } from "react-router";
import { staff } from "~/lib/actor";
import { requireAdminSession } from "~/lib/admin.server";
import { clientAddress, httpErrorOf } from "~/lib/http.server";
import type { GenShareReply } from "~/features/team-badges/components/badge-dialog";
import { GenerateBadgeShareSchema } from "~/features/team-badges/team-badges.schema";
import { generateBadgeShare } from "~/features/team-badges/team-badges.server";

/**
 * The badge dialog's 'Gen Share File' form: staff only, the badge's own fields (the JSON API
 * is for callers that send their own). Answers 'Share file generated' or 'Failed: …'.
 */
export async function genShareAction(request: Request, context: AppLoadContext, form: FormData) {
  const id = String(form.get("id") ?? "");
  await requireAdminSession(request, `/badges?id=${encodeURIComponent(id)}`);
  const parsed = GenerateBadgeShareSchema.safeParse({ id });
  if (!parsed.success) {
    return data<GenShareReply>({ intent: "gen-share", ok: false, message: `Failed: ${parsed.error.issues[0]?.message}` }, 400);
  }
  try {
    await generateBadgeShare(context.db, parsed.data, staff(clientAddress(context)));
    return data<GenShareReply>({ intent: "gen-share", ok: true, message: "Share file generated" });
  } catch (e) {
    const http = httpErrorOf(e);
    if (!http) console.error("[badges] share file failed", e);
    const reason = http ? http.message : "the server could not write it";
    return data<GenShareReply>({ intent: "gen-share", ok: false, message: `Failed: ${reason}` }, http ? http.status : 500);
  }
}
