import { parseWithZod } from "@conform-to/zod/v4";
import type { Reply } from "~/lib/forms";
import { data, type AppLoadContext } from "react-router";
import { feedbackPollOptions } from "~/features/blog/blog";
import { staff } from "~/lib/actor";
import { isAdminSession, requireSameSiteForm } from "~/lib/admin.server";
import { readForm } from "~/lib/submission.server";
import { asRouteError, clientAddress } from "~/lib/http.server";
import { ENGAGEMENT_MESSAGES as M, type PollResult } from "~/features/engagement/engagement-screen";
import { PollFormSchema, splitOptions } from "~/features/engagement/engagement.schema";
import { ensureStaffPoll, loadEngagementData } from "~/features/engagement/engagement.server";

/** The three blocks of /admin/engagement, for signed-in staff. */
export async function loadEngagementScreen(context: AppLoadContext) {
  return loadEngagementData(context.db);
}

const reply = (body: Reply<PollResult>, status: number) => data(body, status);

/**
 * Create or ensure a poll (the form's only action). Signed out: 'Enter admin key' (401);
 * no id: 'Poll id required' (400); the store failing: 'Create failed' (500); else the poll
 * exists with the options asked for, the seed option first, and the log says who did it.
 */
export async function ensurePollAction(request: Request, context: AppLoadContext) {
  requireSameSiteForm(request);
  if (!(await isAdminSession(context.db, request))) return reply({ status: "error", message: M.enterKey }, 401);
  const form = await asRouteError(() => readForm(request, 8 * 1024));
  const values = {
    id: String(form.get("id") ?? "").slice(0, 200),
    question: String(form.get("question") ?? "").slice(0, 400),
    options: String(form.get("options") ?? "").slice(0, 2000),
    template: form.get("template") === "on",
  };
  const submission = parseWithZod(form, { schema: PollFormSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).find((v) => v && v.length > 0)?.[0];
    return reply({ status: "error", message: first ?? M.idRequired, result: { values } }, 400);
  }
  const input = submission.value;
  const options = input.template ? feedbackPollOptions() : splitOptions(input.options);
  const seed = options[0] ?? "A";
  const db = context.db;
  try {
    await ensureStaffPoll(db, { id: input.id, question: input.question ?? "", initialOptions: options, option: seed }, staff(clientAddress(context)));
  } catch (e) {
    console.error(`[admin/engagement] ensure poll ${input.id} failed`, e);
    return reply({ status: "error", message: M.createFailed, result: { values } }, 500);
  }
  return reply({ status: "success", message: M.created, result: { id: input.id } }, 200);
}
