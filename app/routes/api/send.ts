import { ApplicationSchema } from "~/features/applications/applications.schema";
import { submitApplication } from "~/features/applications/applications.server";
import { jsonApi } from "~/lib/api.server";
import { acceptJson } from "~/lib/submission.server";
import { jsonResponse } from "~/lib/http.server";
import { limits } from "~/lib/rate-limit.server";

const api = jsonApi({
  POST: async ({ request, context }) => {
    const taken = await acceptJson(request, context, ApplicationSchema, { name: "application", rule: limits.application });
    if (!taken) return jsonResponse({ ok: true });
    const { id } = await submitApplication(context.db, taken.input);
    return jsonResponse({ ok: true, id });
  },
});
export const loader = api.loader;
export const action = api.action;
