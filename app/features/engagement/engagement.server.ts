import { REACTIONS } from "~/features/blog/blog";
import { logAction } from "~/features/activity/activity.server";
import { allPolls, allReactionCounts, ensurePoll } from "~/features/blog/blog.server";
import type { Actor } from "~/lib/core/actor";
import { listSubscribers } from "~/features/newsletter/newsletter.server";
import { suppressionsOf } from "~/lib/mail/mail-health.server";
import { type Db } from "~/lib/db/db.server";
import {
  ENGAGEMENT_MESSAGES as M,
  SUBSCRIBER_LIMIT,
  type Block,
  type PollView,
  type ReactionRow,
  type SubscriberRow,
} from "./engagement-screen";

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
  const refused = await suppressionsOf(db, rows.map((s) => s.email));
  return rows.map((s) => ({
    email: s.email,
    status: s.status,
    source: s.source,
    createdAt: s.created_at,
    ...(refused.has(s.email.trim().toLowerCase()) ? { mailRefusedAt: refused.get(s.email.trim().toLowerCase()) } : {}),
  }));
}

export async function loadEngagementData(db: Db) {
  return {
    reactions: await block(M.reactionsFailed, () => reactionRows(db)),
    polls: await block(M.pollsFailed, () => pollRows(db)),
    subscribers: await block(M.subscribersFailed, () => subscriberRows(db)),
  };
}

/**
 * Staff create a poll, or make sure one exists with these options (the seed option added):
 * votes already cast stay. Logged as 'polls.ensure' with the options it now has.
 */
export async function ensureStaffPoll(
  db: Db,
  input: { id: string; question: string; initialOptions?: string | string[]; option?: string },
  actor: Actor,
) {
  const options = await ensurePoll(db, input);
  await logAction(db, actor, {
    type: "polls.ensure",
    message: `Poll ${input.id} created or ensured`,
    meta: { id: input.id, options: Object.keys(options ?? {}) },
  });
  return options;
}
