import { doorPortrait } from "~/features/event-badges/check-in.server";
import { isAdminSession } from "~/features/admin/staff-auth.server";
import { textResponse } from "~/lib/http/http.server";
import type { Route } from "./+types/check-in-portrait";

/** /admin/check-in/portrait/{id}.webp: an approved supporter's small portrait, for signed-in staff only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = /^(BO-[0-9A-Z]{6})\.webp$/.exec(params.file ?? "")?.[1];
  const bytes = id && (await isAdminSession(context.db, request)) ? await doorPortrait(context.db, id) : null;
  if (!bytes) return textResponse(404, "Not found");
  return new Response(new Uint8Array(bytes), { headers: { "Content-Type": "image/webp", "Cache-Control": "private, no-store" } });
}
