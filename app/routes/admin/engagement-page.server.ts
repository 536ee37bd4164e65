import type { Reply } from "~/lib/forms";
import { data, type AppLoadContext } from "react-router";
import { feedbackPollOptions } from "~/features/blog/blog";
import { staffAction, staffIntent } from "~/features/admin/staff-action.server";
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
export function ensurePollAction(request: Request, context: AppLoadContext) {
  return staffAction<PollResult>(request, context, {
    name: "admin/engagement",
    session: { signedOut: () => reply({ status: "error", message: M.enterKey }, 401) },
    maxBytes: 8 * 1024,
    otherwise: "ensure-poll",
    intents: {
      "ensure-poll": staffIntent<PollResult, typeof PollFormSchema>({
        schema: PollFormSchema,
        conform: true,
        invalid: ({ message }, { fields }) => reply({ status: "error", message: message ?? M.idRequired, result: { values: typed(fields) } }, 400),
        run: async (input, { db, actor }) => {
          const options = input.template ? feedbackPollOptions() : splitOptions(input.options);
          await ensureStaffPoll(db, { id: input.id, question: input.question ?? "", initialOptions: options, option: options[0] ?? "A" }, actor);
          return reply({ status: "success", message: M.created, result: { id: input.id } }, 200);
        },
        refused: () => null,
        failed: (_e, { fields }) => ({ status: "error", message: M.createFailed, result: { values: typed(fields) } }),
      }),
    },
  });
}
