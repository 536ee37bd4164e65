import { textResponse } from "~/lib/http/http.server";
import { wallPortrait } from "~/features/event-badges/wall.server";
import type { Route } from "./+types/supporter-portrait";

/** GET /event/supporters/:key.webp: a listed supporter's portrait, while they may be shown. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const key = /^(.+)\.webp$/.exec(params.file)?.[1] ?? "";
  const bytes = await wallPortrait(context.db, key);
  if (!bytes) return textResponse(404, "No such picture.");
  // Short-lived: a supporter taken off the wall is gone from browsers within minutes.
  return new Response(new Uint8Array(bytes), { headers: { "Content-Type": "image/webp", "Cache-Control": "public, max-age=300" } });
}
