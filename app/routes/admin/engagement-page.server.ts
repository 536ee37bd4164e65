import type { Reply } from "~/lib/core/forms";
import { data, type AppLoadContext } from "react-router";
import { feedbackPollOptions } from "~/features/blog/blog";
import { isAdminSession, requireSameSiteForm } from "~/features/admin/staff-auth.server";
import { staff } from "~/lib/core/actor";
import { asRouteError, clientAddress } from "~/lib/http/http.server";
import { parseSubmission, readForm, submissionOf } from "~/lib/forms/submission.server";
import { ENGAGEMENT_MESSAGES as M, type PollResult } from "~/features/engagement/engagement-screen";
import { PollFormSchema, splitOptions } from "~/features/engagement/engagement.schema";
import { ensureStaffPoll, loadEngagementData } from "~/features/engagement/engagement.server";

/** The three blocks of /admin/engagement, for signed-in staff. */
export async function loadEngagementScreen(context: AppLoadContext) {
  return loadEngagementData(context.db);
}

const reply = (body: Reply<PollResult>, status: number) => data(body, status);

/** What was typed, sent back with a refusal so the form keeps it. */
const typed = (fields: Record<string, unknown>) => ({
  id: String(fields.id ?? "").slice(0, 200),
  question: String(fields.question ?? "").slice(0, 400),
  options: String(fields.options ?? "").slice(0, 2000),
  template: fields.template === "on",
});

/**
 * Create or ensure a poll (the form's only action). Signed out: 'Enter admin key' (401);
 * no id: 'Poll id required' (400); the store failing: 'Create failed' (500); else the poll
 * exists with the options asked for, the seed option first, and the log says who did it.
 */
export async function ensurePollAction(request: Request, context: AppLoadContext) {
  requireSameSiteForm(request);
  if (!(await isAdminSession(context.db, request))) return reply({ status: "error", message: M.enterKey }, 401);
  const actor = staff(clientAddress(context));
  const submission = submissionOf(await asRouteError(() => readForm(request, 8 * 1024)));
  // The screen's one form: whatever intent it names, it ensures the poll.
  const parsed = parseSubmission(submission, PollFormSchema);
  if (!parsed.ok) return reply({ status: "error", message: parsed.first ?? M.idRequired, result: { values: typed(submission.fields) } }, 400);
  const input = parsed.value;
  const options = input.template ? feedbackPollOptions() : splitOptions(input.options);
  try {
    await ensureStaffPoll(context.db, { id: input.id, question: input.question ?? "", initialOptions: options, option: options[0] ?? "A" }, actor);
  } catch (e) {
    // Nothing here is for staff to fix: whatever the store said, the poll was not made.
    console.error("[admin/engagement] ensure-poll failed", e);
    return reply({ status: "error", message: M.createFailed, result: { values: typed(submission.fields) } }, 500);
  }
  return reply({ status: "success", message: M.created, result: { id: input.id } }, 200);
}
