import { downloadMyData } from "~/features/people/data-requests.server";
import { textResponse } from "~/lib/http/http.server";
import type { Route } from "./+types/my-data-download";

/** GET /privacy/my-data/download?token=: the ZIP a mailed link (valid 24 hours) downloads. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const token = (url.searchParams.get("token") ?? "").slice(0, 100);
  const out = token ? await downloadMyData(context.db, token) : null;
  if (!out) return textResponse(404, "This link is not valid or has expired. Ask for a new one at /privacy/my-data.");
  return new Response(new Uint8Array(out.zip), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${out.fileName}"`,
      "Cache-Control": "private, no-store",
      "Referrer-Policy": "no-referrer",
    },
  });
}
