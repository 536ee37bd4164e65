import { listSeries, saveSeriesList } from "~/features/blog/series.server";
import { checkSeriesList } from "~/features/blog/series.schema";
import { staff } from "~/lib/core/actor";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { clientAddress, HttpError, jsonResponse, readObjectBody } from "~/lib/http/http.server";

/**
 * GET: every series, in the old shape ([{seriesId, title, image, summary?, createdAt?}]).
 * POST (admin) {items}: replace them, answering {ok:true}; the old blog admin saves the series
 * first, then the posts.
 */
const api = jsonApi({
  GET: async ({ context }) => jsonResponse(await listSeries(context.db)),
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const check = checkSeriesList(await readObjectBody(request, 512 * 1024));
    if (!check.ok) throw new HttpError(400, check.message);
    await saveSeriesList(context.db, check.items, staff(clientAddress(context)));
    return jsonResponse({ ok: true });
  },
});
export const loader = api.loader;
export const action = api.action;
