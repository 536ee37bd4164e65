import { z } from "zod";
import { listActivity } from "~/features/activity/activity.server";
import { NAME_PATTERN } from "~/features/analytics/analytics.schema";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { parseOr400 } from "~/lib/forms/submission.server";
import { jsonResponse } from "~/lib/http/http.server";

const QuerySchema = z.object({
  limit: z.coerce.number().int().min(1, "limit must be 1 to 1000").max(1000, "limit must be 1 to 1000").default(200),
  type: z.string().max(64).regex(NAME_PATTERN, "type has characters that are not allowed").optional(),
});

const api = jsonApi({
  GET: async ({ request, url, context }) => {
    await requireAdminApi(request, context);
    const params = Object.fromEntries(url.searchParams);
    const query = parseOr400(QuerySchema, { limit: params.limit || undefined, type: params.type || undefined });
    return jsonResponse({ ok: true, items: await listActivity(context.db, query) });
  },
});
export const loader = api.loader;
export const action = api.action;
