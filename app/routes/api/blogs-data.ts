import { listPosts } from "~/features/blog/blog.server";
import { jsonApi } from "~/lib/http/api.server";
import { jsonResponse } from "~/lib/http/http.server";

/** GET /data/blogs.json: the posts, always fresh (the client falls back to its bundled list on failure). */
const api = jsonApi({
  GET: async ({ context }) => {
    const res = jsonResponse(await listPosts(context.db));
    res.headers.set("Cache-Control", "no-cache");
    return res;
  },
});
export const loader = api.loader;
export const action = api.action;
