import { listSubscribers } from "~/features/newsletter/newsletter.server";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { HttpError, jsonResponse } from "~/lib/http/http.server";
import { subscribeJson } from "./subscribe-json.server";

const api = jsonApi({
  GET: async ({ request, url, context }) => {
    const mode = url.searchParams.get("mode");
    if (mode !== "list") throw new HttpError(400, "Unknown mode. Use mode=list.");
    await requireAdminApi(request, context);
    return jsonResponse({ ok: true, items: await listSubscribers(context.db, 100) });
  },
  POST: subscribeJson,
});
export const loader = api.loader;
export const action = api.action;
