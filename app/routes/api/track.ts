import { TrackSchema } from "~/features/analytics/analytics.schema";
import { isBotAgent, queueEvent, toRow } from "~/features/analytics/analytics.server";
import { clientIdFor } from "~/features/analytics/visitor.server";
import { jsonApi } from "~/lib/api.server";
import { acceptJson } from "~/lib/submission.server";
import { clientAddress, jsonResponse } from "~/lib/http.server";
import { limits } from "~/lib/rate-limit.server";

/** Room for the old client's error reports (a long message in meta, cut to 200 characters when kept). */
const TRACK_MAX_BYTES = 32 * 1024;

const api = jsonApi({
  POST: async ({ request, context }) => {
    if (isBotAgent(request.headers.get("user-agent"))) {
      await acceptJson(request, context, TrackSchema, null, { maxBytes: TRACK_MAX_BYTES });
      return jsonResponse({ ok: true, counted: false });
    }
    const taken = await acceptJson(request, context, TrackSchema, { name: "track", rule: limits.track }, { maxBytes: TRACK_MAX_BYTES });
    if (!taken) return jsonResponse({ ok: true, counted: false });
    const { input } = taken;
    const cid = clientIdFor(request.headers, clientAddress(context), input.cid);
    queueEvent(toRow(input, cid));
    return jsonResponse({ ok: true, counted: true });
  },
});
export const loader = api.loader;
export const action = api.action;
