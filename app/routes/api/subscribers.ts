import { SubscribeSchema } from "~/features/newsletter/newsletter.schema";
import { listSubscribers, subscribe } from "~/features/newsletter/newsletter.server";
import { requireAdminApi } from "~/lib/admin.server";
import { jsonApi } from "~/lib/api.server";
import { acceptJson } from "~/lib/submission.server";
import { HttpError, jsonResponse } from "~/lib/http.server";
import { limits } from "~/lib/rate-limit.server";

const api = jsonApi({
  GET: async ({ request, context }) => {
    const mode = new URL(request.url).searchParams.get("mode");
    if (mode !== "list") throw new HttpError(400, "Unknown mode. Use mode=list.");
    await requireAdminApi(request, context);
    return jsonResponse({ ok: true, items: await listSubscribers(context.db, 100) });
  },
  POST: async ({ request, context }) => {
    const taken = await acceptJson(request, context, SubscribeSchema, { name: "newsletter", rule: limits.newsletter });
    if (taken) await subscribe(context.db, taken.input);
    return jsonResponse({ ok: true });
  },
});
export const loader = api.loader;
export const action = api.action;
