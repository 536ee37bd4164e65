import { z } from "zod";
import { saveMerchCatalogue } from "~/features/merch/admin/merch-admin.server";
import { CatalogueSchema } from "~/features/merch/merch.schema";
import { listItems } from "~/features/merch/merch.server";
import { staff } from "~/lib/core/actor";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { clientAddress, HttpError, jsonResponse, readObjectBody } from "~/lib/http/http.server";

const SaveSchema = z.object({ items: CatalogueSchema });

/** The first problem, naming the item it is in: "Item 2 (SL-TEE) price: ...". */
function parseCatalogue(body: Record<string, unknown>) {
  const result = SaveSchema.safeParse(body);
  if (result.success) return result.data.items;
  const issue = result.error.issues[0]!;
  const [top, index, ...field] = issue.path;
  if (top !== "items" || typeof index !== "number") {
    throw new HttpError(400, issue.code === "invalid_type" ? "items must be a list of merch items." : issue.message);
  }
  const id = (body.items as { id?: unknown }[])[index]?.id;
  const where = `Item ${index + 1}${typeof id === "string" && id.trim() ? ` (${id.trim()})` : ""}`;
  throw new HttpError(400, `${where}${field.length ? ` ${field.join(".")}` : ""}: ${issue.message}`);
}

/** GET: the catalogue for the editor (no fallback: staff must never save the built-in items over theirs). POST (admin): replace it. */
const api = jsonApi({
  GET: async ({ context }) => jsonResponse(await listItems(context.db)),
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const items = parseCatalogue(await readObjectBody(request, 1024 * 1024));
    const saved = await saveMerchCatalogue(context.db, items, staff(clientAddress(context)));
    return jsonResponse({ ok: true, count: saved.length });
  },
});
export const loader = api.loader;
export const action = api.action;
