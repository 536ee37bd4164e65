import { data, redirect, type AppLoadContext } from "react-router";
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
import { GENERAL_INTEREST, HeroSchema, JoinSchema } from "~/features/applications/applications.schema";
import { submitApplication } from "~/features/applications/applications.server";

/** The home hero: an email alone, sent as a General Interest application. */
export async function heroAction(request: Request, context: AppLoadContext) {
  let submission: Submission;
  try {
    submission = await readSubmission(request);
  } catch (e) {
    return replyFromError(e);
  }
  // Looks like a bot: answer as if all went well, keep nothing.
  if (trippedHoneypot(submission)) return data<Reply<never>>({ status: "success" }, 200);
  const values = typedValues(submission);
  const parsed = parseSubmission(submission, HeroSchema);
  if (!parsed.ok) return invalidReply(parsed, { values });
  try {
    await requireWithinLimit(context, "application", limits.application);
    await submitApplication(context.db, {
      name: "",
      email: parsed.value.email,
      phone: "",
      role: GENERAL_INTEREST,
      message: "",
      source: "home:hero",
    });
  } catch (e) {
    return replyFromError(e, { values }, { unexpected: NOT_SAVED });
  }
  return data<Reply<never>>({ status: "success" }, 200);
}

/** The /join form; success (or a bot's submission, kept nowhere) goes on to /join/thanks. */
export async function joinAction(request: Request, context: AppLoadContext) {
  let submission: Submission;
  try {
    submission = await readSubmission(request);
  } catch (e) {
    return replyFromError(e);
  }
  if (trippedHoneypot(submission)) throw redirect("/join/thanks");
  const values = typedValues(submission);
  const parsed = parseSubmission(submission, JoinSchema);
  if (!parsed.ok) return invalidReply(parsed, { values });
  try {
    await requireWithinLimit(context, "application", limits.application);
    await submitApplication(context.db, parsed.value);
  } catch (e) {
    return replyFromError(e, { values }, { unexpected: NOT_SAVED });
  }
  throw redirect("/join/thanks");
}
