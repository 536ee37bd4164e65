import type { AppLoadContext } from "react-router";
import { handleForm, type Submission } from "~/lib/submission.server";
import { limits } from "~/lib/rate-limit.server";
import { SubscribeSchema } from "~/features/newsletter/newsletter.schema";
import { subscribe } from "~/features/newsletter/newsletter.server";

/**
 * The action behind every newsletter box (footer, about, /newsletter, and the boxes on pages
 * with other forms, which pass the body they read and the intent to answer with).
 */
export async function newsletterAction(
  request: Request,
  context: AppLoadContext,
  page?: { submission: Submission; intent: string },
) {
  return handleForm({
    request,
    context,
    submission: page?.submission,
    intent: page?.intent,
    schema: SubscribeSchema,
    limit: { name: "newsletter", rule: limits.newsletter },
    run: async (input) => {
      await subscribe(context.db, input);
      return { source: input.source, variant: input.variant };
    },
  });
}
