import { SubscribeSchema } from "~/features/newsletter/newsletter.schema";
import { subscribe } from "~/features/newsletter/newsletter.server";
import { jsonApi } from "~/lib/api.server";
import { acceptJson } from "~/lib/submission.server";
import { jsonResponse } from "~/lib/http.server";
import { limits } from "~/lib/rate-limit.server";

const api = jsonApi({
  POST: async ({ request, context }) => {
    const taken = await acceptJson(request, context, SubscribeSchema, { name: "newsletter", rule: limits.newsletter });
    if (taken) await subscribe(context.db, taken.input);
    return jsonResponse({ ok: true });
  },
});
export const loader = api.loader;
export const action = api.action;
