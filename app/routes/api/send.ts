import { ApplicationSchema } from "~/features/applications/applications.schema";
import { submitApplication } from "~/features/applications/applications.server";
import { jsonApi } from "~/lib/http/api.server";
import { parseOr400, readSubmission, requireWithinLimit, trippedHoneypot } from "~/lib/forms/submission.server";
import { jsonResponse } from "~/lib/http/http.server";
import { limits } from "~/lib/server/rate-limit.server";

const api = jsonApi({
  POST: async ({ request, context }) => {
    const submission = await readSubmission(request, 16 * 1024);
    // Looks like a bot: answer as if all went well, keep nothing.
    if (trippedHoneypot(submission)) return jsonResponse({ ok: true });
    const input = parseOr400(ApplicationSchema, submission.fields);
    await requireWithinLimit(context, "application", limits.application);
    const { id } = await submitApplication(context.db, input);
    return jsonResponse({ ok: true, id });
  },
});
export const loader = api.loader;
export const action = api.action;
