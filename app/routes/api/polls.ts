import { ensureStaffPoll } from "~/features/engagement/engagement.server";
import { staff } from "~/lib/core/actor";
import { readClientId, requireClientId } from "~/features/analytics/analytics.server";
import { currentPollId } from "~/features/blog/aliases.server";
import { PollCreateSchema, PollVoteSchema } from "~/features/blog/blog.schema";
import { allPolls, clientVotes, pollCounts, vote } from "~/features/blog/blog.server";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { parseOr400, readSubmission, requireWithinLimit, trippedHoneypot } from "~/lib/forms/submission.server";
import { clientAddress, HttpError, jsonResponse } from "~/lib/http/http.server";
import { limits } from "~/lib/server/rate-limit.server";



/** A missing id or option reads as an empty one, so the schema's own words answer ('Poll id required'). */
const withText = (body: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries([...Object.entries(body), ...keys.filter((k) => body[k] == null).map((k) => [k, ""])]);

/**
 * GET ?id= the counts, ?mode=all (admin) every poll (keyed by id, as the old site's map). POST: a vote in a poll and option the site
 * defined (a public caller's question and initialOptions are ignored); with X-Admin-Key, staff
 * create or ensure the poll instead.
 */
const api = jsonApi({
  GET: async ({ request, url, context }) => {
    const params = url.searchParams;
    const db = context.db;
    if (params.get("mode") === "all") {
      await requireAdminApi(request, context);
      // As the old site answered (and its engagement screen reads): a map keyed by poll id;
      // ?shape=list gives the list.
      const polls = await allPolls(db);
      if (params.get("shape") === "list") return jsonResponse({ ok: true, polls });
      return jsonResponse({ ok: true, polls: Object.fromEntries(polls.map(({ id, question, options }) => [id, { question, options }])) });
    }
    const asked = parseOr400(PollVoteSchema.pick({ id: true }), { id: params.get("id") ?? "" }).id;
    // A post's poll under an old slug (blog-sabbath_rest-feedback) is the post's own poll now.
    const id = await currentPollId(db, asked);
    const options = await pollCounts(db, id);
    if (!options) throw new HttpError(404, "Unknown poll.");
    return jsonResponse({ ok: true, options, mine: await clientVotes(db, id, readClientId(request.headers)) });
  },
  POST: async ({ request, context }) => {
    const submission = await readSubmission(request, 16 * 1024);
    const body = submission.fields;
    const db = context.db;
    if (request.headers.has("x-admin-key")) {
      await requireAdminApi(request, context);
      const input = parseOr400(PollCreateSchema, withText(body, "id"));
      const options = await ensureStaffPoll(db, input, staff(clientAddress(context)));
      return jsonResponse({ ok: true, options });
    }
    // Looks like a bot: answer as if all went well, keep nothing.
    if (trippedHoneypot(submission)) return jsonResponse({ ok: true });
    const input = parseOr400(PollVoteSchema, withText(body, "id", "option"));
    await requireWithinLimit(context, "poll-votes", limits.votes);
    const cid = requireClientId(request.headers, input.cid);
    const id = await currentPollId(db, input.id);
    const options = await vote(db, { id, option: input.option, cid });
    return jsonResponse({ ok: true, options, mine: await clientVotes(db, id, cid) });
  },
});
export const loader = api.loader;
export const action = api.action;
