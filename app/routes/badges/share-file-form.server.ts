import { data, type AppLoadContext } from "react-router";
import { z } from "zod";
import type { Reply } from "~/lib/forms";
import { type Submission } from "~/lib/submission.server";
import { staffAction, staffIntent } from "~/features/admin/staff-action.server";
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
export function genShareAction(request: Request, context: AppLoadContext, submission: Submission) {
  const id = typeof submission.fields.id === "string" ? submission.fields.id : "";
  return staffAction<never>(request, context, {
    name: "badges",
    session: { returnTo: `/badges?id=${encodeURIComponent(id)}` },
    submission,
    intents: {
      "gen-share": staffIntent<never, typeof ShareFileSchema>({
        schema: ShareFileSchema,
        invalid: ({ message }) => data<Reply<never>>({ intent: "gen-share", status: "error", message: `Failed: ${message}` }, 400),
        run: async (input, { db, actor }) => {
          await generateBadgeShare(db, input, actor);
          return data<Reply<never>>({ intent: "gen-share", status: "success", message: "Share file generated" });
        },
        refused: (e) => ({ intent: "gen-share", status: "error", message: `Failed: ${e.message}` }),
        failed: () => ({ intent: "gen-share", status: "error", message: "Failed: the server could not write it" }),
      }),
    },
  });
}
