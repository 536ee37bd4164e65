import { generateMerchShares } from "~/features/merch/admin/merch-admin.server";
import { staff } from "~/lib/core/actor";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { clientAddress, jsonResponse } from "~/lib/http/http.server";

/** Staff: 'Generate Share Files'. The pages are drawn on request; this reports how many there are. */
const api = jsonApi({
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const { count } = await generateMerchShares(context.db, staff(clientAddress(context)));
    return jsonResponse({ ok: true, count });
  },
});
export const loader = api.loader;
export const action = api.action;
