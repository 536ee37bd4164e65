import { jsonApi } from "~/lib/http/api.server";
import { jsonError } from "~/lib/http/http.server";

/**
 * The old site's other /data/ files held orders, subscribers and logs, downloadable by anyone.
 * Their addresses now move for good to the staff screen that shows the same records (signing
 * in first); nothing private is ever served here.
 */
const NEW_HOME: Record<string, string> = {
  "badge_orders.json": "/admin/badge-orders",
  "merch_orders.jsonl": "/admin/merch-orders",
  "subscribers.json": "/admin/engagement",
  "reactions.json": "/admin/engagement",
  "reactions_log.jsonl": "/admin/engagement",
  "polls.json": "/admin/engagement",
  "polls_log.jsonl": "/admin/engagement",
  "analytics.jsonl": "/admin/activity",
  "admin_activity.jsonl": "/admin/activity",
  "team_badges.json": "/badges",
};

const api = jsonApi({
  GET: async ({ request, url }) => {
    const file = url.pathname.replace(/^\/data\//, "");
    const home = Object.hasOwn(NEW_HOME, file) ? NEW_HOME[file] : undefined;
    if (!home) return jsonError(404, "Not found.");
    return new Response(null, { status: 301, headers: { Location: home, "Cache-Control": "public, max-age=3600" } });
  },
});
export const loader = api.loader;
export const action = api.action;
