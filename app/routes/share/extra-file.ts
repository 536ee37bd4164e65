import { shareExtra } from "~/features/legacy-import/share-extras.server";
import { textResponse } from "~/lib/http/http.server";
import type { Route } from "./+types/extra-file";

/** /share/extra/{name}: the old site's shared pictures (the series cover), as the import kept them. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const file = await shareExtra(context.db, params.file);
  if (!file) return textResponse(404, "Not found");
  return new Response(new Uint8Array(file.bytes), { headers: { "Content-Type": file.type, "Cache-Control": "public, max-age=86400" } });
}
