import type { AppLoadContext } from "react-router";
import { getDb } from "~/lib/db.server";
import { handleForm } from "~/lib/submission.server";
import { limits } from "~/lib/rate-limit.server";
import { SubscribeSchema } from "./newsletter.schema";
import { subscribe } from "./newsletter.server";

/** The action behind every newsletter box (footer, about, and the page at /newsletter). */
export async function newsletterAction(request: Request, context: AppLoadContext | undefined) {
  return handleForm({
    request,
    context,
    schema: SubscribeSchema,
    limit: { name: "newsletter", rule: limits.newsletter },
    run: async (input) => {
      await subscribe(await getDb(), input);
      return { source: input.source, variant: input.variant };
    },
  });
}
