import { TrackSchema } from "~/features/analytics/analytics.schema";
import { isBotAgent, queueEvent, toRow } from "~/features/analytics/analytics.server";
import { clientIdFor } from "~/features/analytics/visitor.server";
import { jsonApi } from "~/lib/http/api.server";
import { parseOr400, readSubmission, requireWithinLimit, trippedHoneypot } from "~/lib/forms/submission.server";
import { clientAddress, jsonResponse } from "~/lib/http/http.server";
import { limits } from "~/lib/server/rate-limit.server";

/** Room for the old client's error reports (a long message in meta, cut to 200 characters when kept). */
const TRACK_MAX_BYTES = 32 * 1024;

const api = jsonApi({
  POST: async ({ request, context }) => {
    const submission = await readSubmission(request, TRACK_MAX_BYTES);
    // A honeypot filled in: answered as if all went well, counted nowhere.
    if (trippedHoneypot(submission)) return jsonResponse({ ok: true, counted: false });
    const input = parseOr400(TrackSchema, submission.fields);
    // A crawler's event is checked like any other, and not counted (nor against the limit).
    if (isBotAgent(request.headers.get("user-agent"))) return jsonResponse({ ok: true, counted: false });
    await requireWithinLimit(context, "track", limits.track);
    const cid = clientIdFor(request.headers, clientAddress(context), input.cid);
    queueEvent(toRow(input, cid));
    return jsonResponse({ ok: true, counted: true });
  },
});
export const loader = api.loader;
export const action = api.action;
