import { data, type AppLoadContext } from "react-router";
import { clientIdCookie, newClientId, readClientId } from "~/features/analytics/analytics.server";
import { newsletterAction } from "~/routes/site/newsletter-form.server";
import { env } from "~/lib/server/env.server";
import { parseInput, type Submission } from "~/lib/forms/submission.server";
import { clientAddress, HttpError, onRefusal } from "~/lib/http/http.server";
import { consume, tooManyMessage, type LimitRule } from "~/lib/server/rate-limit.server";
import { BLOG_MESSAGES, feedbackPollId, postPollId } from "~/features/blog/blog";
import { PollVoteSchema, ReactionSchema } from "~/features/blog/blog.schema";
import { clientReactions, clientVotes, toggleReaction, vote } from "~/features/blog/blog.server";
import type { BlogReply, BlogResult } from "~/features/blog/components/blog-reply";

// Reactions and votes are cheap and idempotent per client; the limit only stops floods.
const ENGAGE_LIMIT: LimitRule = { points: 120, durationSeconds: 600 };

type Reply = ReturnType<typeof data<BlogReply>>;

/**
 * The client id a page renders for: the visitor's (cookie or X-Client-Id), or the one this
 * request's action has just made (its cookie only arrives with the next request).
 */
export const clientIdOf = (request: Request, context: AppLoadContext) =>
  readClientId(request.headers) ?? context?.newClientId;

/** The visitor's client id, or a new one and the cookie that keeps it. */
function clientIdFor(request: Request, context: AppLoadContext) {
  const headers = new Headers();
  let cid = clientIdOf(request, context);
  if (!cid) {
    cid = newClientId();
    if (context) context.newClientId = cid;
    headers.append("Set-Cookie", clientIdCookie(cid, env().publicUrl.startsWith("https://")));
  }
  return { cid, headers };
}

async function engage(
  intent: "react" | "vote",
  request: Request,
  context: AppLoadContext,
  run: (cid: string) => Promise<BlogResult>,
  /** Named in every answer, errors too, so the right form shows it (the poll id). */
  about: BlogResult = {},
): Promise<Reply> {
  const { cid, headers } = clientIdFor(request, context);
  const limited = await consume("blog-engage", ENGAGE_LIMIT, clientAddress(context));
  if (!limited.ok) {
    headers.set("Retry-After", String(limited.retryAfterSeconds));
    return data<BlogReply>({ status: "error", intent, result: about, message: tooManyMessage(limited.retryAfterSeconds) }, { status: 429, headers });
  }
  return onRefusal(
    async () => data<BlogReply>({ status: "success", intent, result: { ...(await run(cid)), ...about } }, { headers }),
    (http) => data<BlogReply>({ status: "error", intent, result: about, message: http.message }, { status: http.status, headers }),
  );
}

const NOT_UNDERSTOOD = "That request was not understood.";

/**
 * intent=react: adds the client's reaction to the post, or with undo=1 takes it back. The
 * reply carries the post's counts and the reactions this client has given.
 */
export function reactAction(request: Request, context: AppLoadContext, slug: string, fields: Record<string, unknown>) {
  return engage("react", request, context, async (cid) => {
    const parsed = parseInput(ReactionSchema, { slug, reaction: fields.reaction, undo: fields.undo ?? undefined, cid });
    if (!parsed.ok) throw new HttpError(400, parsed.first ?? NOT_UNDERSTOOD);
    const db = context.db;
    const counts = await toggleReaction(db, { ...parsed.value, cid });
    return { counts, chosen: await clientReactions(db, slug, cid) };
  });
}

/**
 * intent=vote: a vote in one of this post's two polls (option "Yes", or a rating such as
 * "Inspired me:4"). The question poll answers its counts; the feedback poll keeps them hidden
 * and answers only this client's ratings.
 */
export function voteAction(request: Request, context: AppLoadContext, slug: string, fields: Record<string, unknown>) {
  const poll = String(fields.id ?? "").slice(0, 100);
  return engage("vote", request, context, async (cid) => {
    const parsed = parseInput(PollVoteSchema, { id: fields.id, option: fields.option, cid });
    if (!parsed.ok) throw new HttpError(400, parsed.first ?? NOT_UNDERSTOOD);
    const { id, option } = parsed.value;
    const feedback = id === feedbackPollId(slug);
    if (!feedback && id !== postPollId(slug)) throw new HttpError(404, "Unknown poll.");
    const db = context.db;
    const counts = await vote(db, { id, option, cid });
    const mine = await clientVotes(db, id, cid);
    return feedback ? { mine } : { options: counts, mine };
  }, { poll });
}

/**
 * intent=subscribe: the newsletter sign-up with the box's source (blogs:index, blogs:{slug}).
 * A failure shows the server's words, else the blog's 'Something went wrong'.
 */
export async function subscribeAction(request: Request, context: AppLoadContext, submission?: Submission): Promise<Reply> {
  const reply = await newsletterAction(request, context, submission ? { submission, intent: "subscribe" } : undefined);
  const r = reply.data;
  let message = r.message;
  if (r.status === "error" && !message && !r.fieldErrors?.email) {
    message = Object.values(r.fieldErrors ?? {})[0]?.[0] ?? BLOG_MESSAGES.subscribeFailed;
  }
  return data<BlogReply>({ ...r, result: undefined, message, intent: "subscribe" }, reply.init ?? undefined);
}
