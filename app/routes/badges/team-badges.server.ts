import { data, type AppLoadContext } from "react-router";
import type { Reply } from "~/lib/forms";
import type { Submission } from "~/lib/submission.server";
import { staff } from "~/lib/actor";
import { requireAdminSession } from "~/lib/admin.server";
import { clientAddress, httpErrorOf } from "~/lib/http.server";
import { GenerateBadgeShareSchema } from "~/features/team-badges/team-badges.schema";
import { generateBadgeShare } from "~/features/team-badges/team-badges.server";

/**
 * The badge dialog's 'Gen Share File' form: staff only, the badge's own fields (the JSON API
 * is for callers that send their own). Answers 'Share file generated' or 'Failed: …'.
 */
export async function genShareAction(request: Request, context: AppLoadContext, submission: Submission) {
  const id = typeof submission.fields.id === "string" ? submission.fields.id : "";
  await requireAdminSession(context.db, request, `/badges?id=${encodeURIComponent(id)}`);
  const parsed = GenerateBadgeShareSchema.safeParse({ id });
  if (!parsed.success) {
    return data<Reply>({ intent: "gen-share", status: "error", message: `Failed: ${parsed.error.issues[0]?.message}` }, 400);
  }
  try {
    await generateBadgeShare(context.db, parsed.data, staff(clientAddress(context)));
    return data<Reply>({ intent: "gen-share", status: "success", message: "Share file generated" });
  } catch (e) {
    const http = httpErrorOf(e);
    if (!http) console.error("[badges] share file failed", e);
    const reason = http ? http.message : "the server could not write it";
    return data<Reply>({ intent: "gen-share", status: "error", message: `Failed: ${reason}` }, http ? http.status : 500);
  }
}
