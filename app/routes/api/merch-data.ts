import { FALLBACK_CATALOGUE } from "~/features/merch/merch";
import { loadCatalogue } from "~/features/merch/merch.server";
import { jsonApi } from "~/lib/http/api.server";
import { jsonResponse } from "~/lib/http/http.server";

/** GET /data/merch.json: the public catalogue; the built-in items when it cannot be read. */
const api = jsonApi({
  GET: async ({ context }) => {
    // loadCatalogue falls back when the query fails; the catch covers anything else.
    const items = await loadCatalogue(context.db)
      .then((c) => c.items)
      .catch(() => FALLBACK_CATALOGUE);
    const res = jsonResponse(items);
    res.headers.set("Cache-Control", "no-cache");
    return res;
  },
});
export const loader = api.loader;
export const action = api.action;
