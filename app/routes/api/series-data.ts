import { listSeries } from "~/features/blog/series.server";
import { jsonApi } from "~/lib/http/api.server";
import { jsonResponse } from "~/lib/http/http.server";

/** GET /data/series.json: the series, always fresh, as the old site's file held them. */
const api = jsonApi({
  GET: async ({ context }) => {
    const res = jsonResponse(await listSeries(context.db));
    res.headers.set("Cache-Control", "no-cache");
    return res;
  },
});
export const loader = api.loader;
export const action = api.action;
