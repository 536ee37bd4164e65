import { exportPerson } from "~/features/people/people.server";
import { PERSON_QUERY_MAX } from "~/features/people/people";
import { isAdminSession } from "~/features/admin/staff-auth.server";
import { onRefusal, textResponse } from "~/lib/http/http.server";
import type { Route } from "./+types/people-export";

/** GET /admin/people/export?q=: one person's records and files as a ZIP, for signed-in staff. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  if (!(await isAdminSession(context.db, request))) return textResponse(401, "Sign in at /admin first.");
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, PERSON_QUERY_MAX);
  return onRefusal(
    async () => {
      const out = await exportPerson(context.db, q);
      return new Response(new Uint8Array(out.zip), {
        headers: {
          "Content-Type": "application/zip",
          "Content-Disposition": `attachment; filename="${out.fileName}"`,
          "Cache-Control": "private, no-store",
        },
      });
    },
    (http) => textResponse(http.status, http.message),
  );
}
