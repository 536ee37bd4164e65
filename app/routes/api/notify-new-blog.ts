import { notifyBlogSubscribers } from "~/features/blog/admin/blog-admin.server";
import { SLUG_PATTERN } from "~/features/blog/blog.schema";
import { staff } from "~/lib/core/actor";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { clientAddress, HttpError, jsonResponse, readObjectBody } from "~/lib/http/http.server";

/** Staff {slug}: answers at once with the number of subscribers; the mail goes out in the background. */
const api = jsonApi({
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const { slug } = await readObjectBody(request);
    if (typeof slug !== "string" || !slug.trim()) throw new HttpError(400, "slug is required.");
    if (!SLUG_PATTERN.test(slug.trim())) throw new HttpError(404, "Unknown post.");
    const run = await notifyBlogSubscribers(context.db, slug.trim(), staff(clientAddress(context)));
    return jsonResponse({ ok: true, recipients: run.recipients, notification: run.id });
  },
});
export const loader = api.loader;
export const action = api.action;
