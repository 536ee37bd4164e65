import { checkIn, checkInSchemaFor, RefusedAtDoor } from "~/features/event-badges/check-in.server";
import { staff } from "~/lib/core/actor";
import { requireAdminApi } from "~/features/admin/staff-auth.server";
import { jsonApi } from "~/lib/http/api.server";
import { clientAddress, HttpError, jsonResponse, readObjectBody } from "~/lib/http/http.server";
import { parseOr400 } from "~/lib/forms/submission.server";

/**
 * POST /api/checkin.php (staff): `{token}` or `{reference}` → `{ok, order: {id, name, tierName,
 * hardCopy}, checkedInAt, already}`. An unknown or forged ticket is a 404 with a message; a
 * revoked badge or a rejected order is a 409 whose error says so with the reason, and names the
 * order and why (`refused: {kind, at, reason}`).
 */
const api = jsonApi({
  POST: async ({ request, context }) => {
    await requireAdminApi(request, context);
    const body = await readObjectBody(request, 2048);
    const schema = checkInSchemaFor(body);
    if (!schema) throw new HttpError(400, "Send {token} (a scanned ticket) or {reference} (BO-ABC123).");
    const input = parseOr400(schema, body);
    try {
      const result = await checkIn(context.db, input, staff(clientAddress(context)));
      return jsonResponse({ ok: true, ...result });
    } catch (e) {
      if (!(e instanceof RefusedAtDoor)) throw e;
      const { id, name, tierName, hardCopy, refused } = e.entry;
      return jsonResponse({ ok: false, error: e.message, order: { id, name, tierName, hardCopy }, refused }, { status: 409 });
    }
  },
});
export const loader = api.loader;
export const action = api.action;
