import { shareCardFor } from "~/features/open-badges/open-badges.server";
import { textResponse } from "~/lib/http/http.server";
import type { Route } from "./+types/open-badges-card";

/** GET /badges/cards/{id}.png: the badge's 1200x630 link-preview card. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const m = /^(.{1,48})\.png$/.exec(params.file ?? "");
  const card = m ? await shareCardFor(context.db, m[1]!) : null;
  if (!card) return textResponse(404, "Not found");
  const headers = { "Content-Type": "image/png", "Cache-Control": "public, max-age=300", ETag: card.etag };
  if (request.headers.get("if-none-match") === card.etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(card.png), { headers });
}
