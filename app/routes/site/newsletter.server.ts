import type { AppLoadContext } from "react-router";
import { handleForm } from "~/lib/submission.server";
import { limits } from "~/lib/rate-limit.server";
import { SubscribeSchema } from "~/features/newsletter/newsletter.schema";
import { subscribe } from "~/features/newsletter/newsletter.server";

/** The action behind every newsletter box (footer, about, and the page at /newsletter). */
export async function newsletterAction(request: Request, context: AppLoadContext) {
  return handleForm({
    request,
    context,
    schema: SubscribeSchema,
    limit: { name: "newsletter", rule: limits.newsletter },
    run: async (input) => {
      await subscribe(context.db, input);
      return { source: input.source, variant: input.variant };
    },
  });
}
