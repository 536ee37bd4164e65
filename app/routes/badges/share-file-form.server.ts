import { data, type AppLoadContext } from "react-router";
import { z } from "zod";
import type { Reply } from "~/lib/core/forms";
import { httpErrorOf } from "~/lib/http/http.server";
import { parseSubmission, type Submission } from "~/lib/forms/submission.server";
import { requireStaff } from "~/features/admin/staff-auth.server";
import { GenerateBadgeShareSchema } from "~/features/team-badges/team-badges.schema";
import { generateBadgeShare } from "~/features/team-badges/team-badges.server";

/** The form sends the badge id alone: the share file uses the badge's own fields. */
const ShareFileSchema = z.preprocess((f) => {
  const id = (f as Record<string, unknown>).id;
  return { id: typeof id === "string" ? id : "" };
}, GenerateBadgeShareSchema);

/**
 * The badge dialog's 'Gen Share File' form: staff only, the badge's own fields (the JSON API
 * is for callers that send their own). Answers 'Share file generated' or 'Failed: …'.
 */
export async function genShareAction(request: Request, context: AppLoadContext, submission: Submission) {
  const intent = "gen-share";
  const id = typeof submission.fields.id === "string" ? submission.fields.id : "";
  const actor = await requireStaff(request, context, `/badges?id=${encodeURIComponent(id)}`);
  const parsed = parseSubmission(submission, ShareFileSchema, "fields");
  if (!parsed.ok) return data<Reply<never>>({ intent, status: "error", message: `Failed: ${parsed.first}` }, 400);
  try {
    await generateBadgeShare(context.db, parsed.value, actor);
  } catch (e) {
    const refused = httpErrorOf(e);
    if (!refused) console.error("[badges] gen-share failed", e);
    const message = `Failed: ${refused ? refused.message : "the server could not write it"}`;
    return data<Reply<never>>({ intent, status: "error", message }, refused?.status ?? 500);
  }
  return data<Reply<never>>({ intent, status: "success", message: "Share file generated" });
}
