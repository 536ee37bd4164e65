import { readClientId, requireClientId } from "~/features/analytics/analytics.server";
import { currentPostSlug } from "~/features/blog/aliases.server";
import { ReactionSchema } from "~/features/blog/blog.schema";
import { allReactionCounts, clientReactions, getPost, reactionCounts, toggleReaction } from "~/features/blog/blog.server";
import type { ReactionCounts } from "~/features/blog/blog";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { parseOr400, readSubmission, requireWithinLimit, trippedHoneypot } from "~/lib/forms/submission.server";
import { HttpError, jsonResponse } from "~/lib/http/http.server";
import { limits } from "~/lib/server/rate-limit.server";



/** Both shapes clients read: {counts} and the counts at the top level. */
const answer = (counts: ReactionCounts, mine: string[]) => jsonResponse({ ok: true, counts, ...counts, mine });

/** GET ?slug= counts, ?mode=all (admin) every post's. POST {slug, reaction, undo, cid}: toggle the caller's own. */
const api = jsonApi({
  GET: async ({ request, url, context }) => {
    const params = url.searchParams;
    const db = context.db;
    if (params.get("mode") === "all") {
      await requireAdminApi(request, context);
      return jsonResponse({ ok: true, slugs: await allReactionCounts(db) });
    }
    const asked = params.get("slug")?.trim() ?? "";
    if (!asked) throw new HttpError(400, "slug is required.");
    const slug = ReactionSchema.shape.slug.safeParse(asked).success ? await currentPostSlug(db, asked) : asked;
    const post = ReactionSchema.shape.slug.safeParse(slug).success ? await getPost(db, slug) : undefined;
    if (!post) throw new HttpError(404, "Unknown post.");
    return answer(await reactionCounts(db, slug), await clientReactions(db, slug, readClientId(request.headers)));
  },
  POST: async ({ request, context }) => {
    const submission = await readSubmission(request, 16 * 1024);
    // Looks like a bot: answer as if all went well, keep nothing.
    if (trippedHoneypot(submission)) return jsonResponse({ ok: true });
    const input = parseOr400(ReactionSchema, submission.fields);
    await requireWithinLimit(context, "reactions", limits.reactions);
    const cid = requireClientId(request.headers, input.cid);
    const db = context.db;
    // A reaction on an old slug (sabbath_rest) counts on the post it moved to.
    const slug = await currentPostSlug(db, input.slug);
    const counts = await toggleReaction(db, { slug, reaction: input.reaction, undo: input.undo, cid });
    return answer(counts, await clientReactions(db, slug, cid));
  },
});
export const loader = api.loader;
export const action = api.action;
