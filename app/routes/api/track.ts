import { TrackSchema } from "~/features/analytics/analytics.schema";
import { isBotAgent, queueEvent, toRow } from "~/features/analytics/analytics.server";
import { clientIdFor } from "~/features/analytics/visitor.server";
import { enforceLimit, jsonApi, parseOr400 } from "~/lib/api.server";
import { clientAddress, jsonResponse, readObjectBody } from "~/lib/http.server";
import { limits } from "~/lib/rate-limit.server";

const api = jsonApi({
  POST: async ({ request, context }) => {
    const body = await readObjectBody(request, 8 * 1024);
    const input = parseOr400(TrackSchema, body);
    if (isBotAgent(request.headers.get("user-agent"))) return jsonResponse({ ok: true, counted: false });
    await enforceLimit(context, "track", limits.track);
    const cid = clientIdFor(request, clientAddress(context), input.cid);
    queueEvent(toRow(input, cid));
    return jsonResponse({ ok: true, counted: true });
  },
});
export const loader = api.loader;
export const action = api.action;
