import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "react-router";
import { recordActivity } from "~/features/activity/activity.server";
import { feedbackPollOptions, REACTIONS } from "~/features/blog/blog";
import { allPolls, allReactionCounts, ensurePoll } from "~/features/blog/blog.server";
import { listSubscribers } from "~/features/newsletter/newsletter.server";
import { isAdminSession, requireSameSiteForm } from "~/lib/admin.server";
import { getDb, type Db } from "~/lib/db.server";
import { readForm } from "~/lib/submission.server";
import { asRouteError, clientAddress } from "~/lib/http.server";
import {
  ENGAGEMENT_MESSAGES as M,
  SUBSCRIBER_LIMIT,
  type Block,
  type PollReply,
  type PollView,
  type ReactionRow,
  type SubscriberRow,
} from "./engagement-screen";
import { PollFormSchema, splitOptions } from "./engagement.schema";

/** Runs one block's query; a failure is logged and becomes that block's message. */
async function block<T>(error: string, work: () => Promise<T>): Promise<Block<T>> {
  try {
    return { ok: true, rows: await work() };
  } catch (e) {
    console.error(`[admin/engagement] ${error}`, e);
    return { ok: false, error };
  }
}

export async function reactionRows(db: Db): Promise<ReactionRow[]> {
  const all = await allReactionCounts(db);
  return Object.entries(all)
    .map(([slug, counts]) => ({ slug, counts, total: REACTIONS.reduce((s, r) => s + counts[r], 0) }))
    .sort((a, b) => b.total - a.total || (a.slug < b.slug ? -1 : 1));
}

/** Newest first, so a poll just created is at the top. */
export const pollRows = async (db: Db): Promise<PollView[]> => (await allPolls(db)).reverse();

export async function subscriberRows(db: Db): Promise<SubscriberRow[]> {
  const rows = await listSubscribers(db, SUBSCRIBER_LIMIT);
  return rows.map((s) => ({ email: s.email, status: s.status, source: s.source, createdAt: s.created_at }));
}

export async function loadEngagementData(db: Db) {
  return {
    reactions: await block(M.reactionsFailed, () => reactionRows(db)),
    polls: await block(M.pollsFailed, () => pollRows(db)),
    subscribers: await block(M.subscribersFailed, () => subscriberRows(db)),
  };
}

/** The three blocks of /admin/engagement, for signed-in staff. */
export async function loadEngagementScreen() {
  // Without a database nothing can load: the route's error boundary says 'Load failed'.
  return loadEngagementData(await getDb());
}

const reply = (body: PollReply, status: number) => data(body, status);

/**
 * Create or ensure a poll (the form's only action). Signed out: 'Enter admin key' (401);
 * no id: 'Poll id required' (400); the store failing: 'Create failed' (500); else the poll
 * exists with the options asked for, the seed option first, and the log says who did it.
 */
export async function ensurePollAction(request: Request, context: AppLoadContext | undefined) {
  requireSameSiteForm(request);
  if (!(await isAdminSession(request))) return reply({ tone: "error", message: M.enterKey }, 401);
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
    return reply({ tone: "error", message: first ?? M.idRequired, values }, 400);
  }
  const input = submission.value;
  const options = input.template ? feedbackPollOptions() : splitOptions(input.options);
  const seed = options[0] ?? "A";
  const db = await getDb();
  try {
    await ensurePoll(db, { id: input.id, question: input.question ?? "", initialOptions: options, option: seed });
  } catch (e) {
    console.error(`[admin/engagement] ensure poll ${input.id} failed`, e);
    return reply({ tone: "error", message: M.createFailed, values }, 500);
  }
  await recordActivity(db, {
    type: "polls.ensure",
    message: `Poll ${input.id} created or ensured`,
    meta: { id: input.id, options: options.length || 1, template: !!input.template },
    actorIp: clientAddress(context),
  });
  return reply({ tone: "success", message: M.created, id: input.id }, 200);
}
