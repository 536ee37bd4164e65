import { SubscribeSchema } from "~/features/newsletter/newsletter.schema";
import { listSubscribers, subscribe } from "~/features/newsletter/newsletter.server";
import { requireAdminApi } from "~/lib/admin.server";
import { enforceLimit, jsonApi, parseOr400, trippedHoneypot } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { HttpError, jsonResponse, readObjectBody } from "~/lib/http.server";
import { limits } from "~/lib/rate-limit.server";

const api = jsonApi({
  GET: async ({ request, context }) => {
    const mode = new URL(request.url).searchParams.get("mode");
    if (mode !== "list") throw new HttpError(400, "Unknown mode. Use mode=list.");
    await requireAdminApi(request, context);
    return jsonResponse({ ok: true, items: await listSubscribers(await getDb(), 100) });
  },
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
