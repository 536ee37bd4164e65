import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import type { Reply } from "~/lib/core/forms";
import {
  invalidReply,
  NOT_SAVED,
  parseSubmission,
  readSubmission,
  replyFromError,
  requireWithinLimit,
  trippedHoneypot,
  typedValues,
  type Submission,
} from "~/lib/forms/submission.server";
import { limits } from "~/lib/server/rate-limit.server";
import { SubscribeSchema } from "~/features/newsletter/newsletter.schema";
import { subscribe } from "~/features/newsletter/newsletter.server";

type Subscribed = Pick<z.output<typeof SubscribeSchema>, "source" | "variant">;

/**
 * The action behind every newsletter box (footer, about, /newsletter, and the boxes on pages
 * with other forms, which pass the body they read and the intent to answer with).
 */
export async function newsletterAction(
  request: Request,
  context: AppLoadContext,
  page?: { submission: Submission; intent: string },
) {
  const intent = page ? { intent: page.intent } : {};
  let submission: Submission;
  try {
    submission = page?.submission ?? (await readSubmission(request));
  } catch (e) {
    return replyFromError<Subscribed>(e, intent);
  }
  // Looks like a bot: answer as if all went well, keep nothing.
  if (trippedHoneypot(submission)) return data<Reply<Subscribed>>({ status: "success", ...intent }, 200);
  const values = typedValues(submission);
  const parsed = parseSubmission(submission, SubscribeSchema);
  if (!parsed.ok) return invalidReply<Subscribed>(parsed, { values, ...intent });
  const input = parsed.value;
  try {
    await requireWithinLimit(context, "newsletter", limits.newsletter);
    await subscribe(context.db, input);
  } catch (e) {
    return replyFromError<Subscribed>(e, { values, ...intent }, { unexpected: NOT_SAVED });
  }
  return data<Reply<Subscribed>>({ status: "success", result: { source: input.source, variant: input.variant }, ...intent }, 200);
}
