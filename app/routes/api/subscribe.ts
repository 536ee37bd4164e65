import { SubscribeSchema } from "~/features/newsletter/newsletter.schema";
import { subscribe } from "~/features/newsletter/newsletter.server";
import { enforceLimit, jsonApi, parseOr400, trippedHoneypot } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { jsonResponse, readObjectBody } from "~/lib/http.server";
import { limits } from "~/lib/rate-limit.server";

const api = jsonApi({
  POST: async ({ request, context }) => {
    const body = await readObjectBody(request);
    if (trippedHoneypot(body)) return jsonResponse({ ok: true });
    const input = parseOr400(SubscribeSchema, body);
    await enforceLimit(context, "newsletter", limits.newsletter);
    await subscribe(await getDb(), input);
    return jsonResponse({ ok: true });
  },
});
export const loader = api.loader;
export const action = api.action;
