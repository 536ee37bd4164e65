import { AnalyticsQuerySchema, queryValues } from "~/features/analytics/reports.schema";
import { analyticsReply } from "~/features/analytics/reports.server";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { parseOr400 } from "~/lib/forms/submission.server";
import { jsonResponse } from "~/lib/http/http.server";

const api = jsonApi({
  GET: async ({ request, url, context }) => {
    await requireAdminApi(request, context);
    const query = parseOr400(AnalyticsQuerySchema, queryValues(url.searchParams));
    return jsonResponse(await analyticsReply(context.db, query));
  },
});
export const loader = api.loader;
export const action = api.action;
