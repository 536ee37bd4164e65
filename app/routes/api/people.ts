import { erasePerson, exportPerson } from "~/features/people/people.server";
import { PeopleApiSchema } from "~/features/people/people.schema";
import { staff } from "~/lib/core/actor";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { clientAddress, jsonResponse, readObjectBody } from "~/lib/http/http.server";
import { parseOr400 } from "~/lib/forms/submission.server";

/**
 * POST /api/people.php (staff, X-Admin-Key): `{"action":"export","email"|"phone"}` answers the
 * person's records and files as one ZIP; `{"action":"erase",…}` erases them and answers what
 * went, in counts. An address or number with nothing on record is a 404.
 */
const api = jsonApi({
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const input = parseOr400(PeopleApiSchema, await readObjectBody(request, 2048));
    const query = input.email ?? input.phone ?? "";
    if (input.action === "export") {
      const out = await exportPerson(context.db, query);
      return new Response(new Uint8Array(out.zip), {
        headers: {
          "Content-Type": "application/zip",
          "Content-Disposition": `attachment; filename="${out.fileName}"`,
          "Cache-Control": "private, no-store",
        },
      });
    }
    const erased = await erasePerson(context.db, query, staff(clientAddress(context)), "api");
    return jsonResponse({ ok: true, erased });
  },
});
export const loader = api.loader;
export const action = api.action;
