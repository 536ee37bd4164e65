import { recordActivity } from "~/features/activity/activity.server";
import { generateMerchShares } from "~/features/merch/admin/merch-admin.server";
import { requireAdminApi } from "~/lib/admin.server";
import { jsonApi } from "~/lib/api.server";
import { clientAddress, jsonResponse } from "~/lib/http.server";

/** Staff: 'Generate Share Files'. The pages are drawn on request; this reports how many there are. */
const api = jsonApi({
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const db = context.db;
    const { count } = await generateMerchShares(db);
    await recordActivity(db, { type: "merch.generate_share", message: `Merch share pages ready for ${count} items`, meta: { count }, actorIp: clientAddress(context) });
    return jsonResponse({ ok: true, count });
  },
});
export const loader = api.loader;
export const action = api.action;
