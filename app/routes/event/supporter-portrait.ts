import { wallPortrait } from "~/features/event-badges/wall.server";
import type { Route } from "./+types/supporter-portrait";

/** GET /event/supporters/:key.webp: a listed supporter's portrait, while they may be shown. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const key = /^(.+)\.webp$/.exec(params.file)?.[1] ?? "";
  const bytes = await wallPortrait(context.db, key);
  if (!bytes) return new Response("No such picture.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  // Short-lived: a supporter taken off the wall is gone from browsers within minutes.
  return new Response(new Uint8Array(bytes), { headers: { "Content-Type": "image/webp", "Cache-Control": "public, max-age=300" } });
}
