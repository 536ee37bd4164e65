import { ApplicationSchema } from "~/features/applications/applications.schema";
import { submitApplication } from "~/features/applications/applications.server";
import { enforceLimit, jsonApi, parseOr400, trippedHoneypot } from "~/lib/api.server";
import { getDb } from "~/lib/db.server";
import { jsonResponse, readObjectBody } from "~/lib/http.server";
import { limits } from "~/lib/rate-limit.server";

const api = jsonApi({
  POST: async ({ request, context }) => {
    const body = await readObjectBody(request);
    if (trippedHoneypot(body)) return jsonResponse({ ok: true });
    const input = parseOr400(ApplicationSchema, body);
    await enforceLimit(context, "application", limits.application);
    const { id } = await submitApplication(await getDb(), input);
    return jsonResponse({ ok: true, id });
  },
});
export const loader = api.loader;
export const action = api.action;
