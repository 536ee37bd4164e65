import { checkPosts, saveBlogList } from "~/features/blog/admin/blog-admin.server";
import { parseTags } from "~/features/blog/blog";
import { listPosts } from "~/features/blog/blog.server";
import { staff } from "~/lib/core/actor";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { clientAddress, HttpError, jsonResponse, readObjectBody } from "~/lib/http/http.server";

/** Legacy editors send null for an absent field and may send tags as the comma text staff typed. */
const asPostInput = (item: unknown) => {
  if (!item || typeof item !== "object" || Array.isArray(item)) return item;
  const fields = Object.entries(item).filter(([, v]) => v !== null);
  const post = Object.fromEntries(fields) as Record<string, unknown>;
  if (typeof post.tags === "string") post.tags = parseTags(post.tags);
  return post;
};

/** GET: the posts for the editor. POST (admin) {items}: replace them. */
const api = jsonApi({
  GET: async ({ context }) => jsonResponse(await listPosts(context.db)),
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const body = await readObjectBody(request, 4 * 1024 * 1024);
    if (!Array.isArray(body.items)) throw new HttpError(400, "items must be a list of blog posts.");
    const check = checkPosts(body.items.map(asPostInput));
    if (!check.ok) throw new HttpError(400, check.message);
    const saved = await saveBlogList(context.db, check.posts, staff(clientAddress(context)));
    return jsonResponse({ ok: true, count: saved.length });
  },
});
export const loader = api.loader;
export const action = api.action;
