import { eventProgress } from "~/features/event-badges/progress.server";
import type { Route } from "./+types/event-progress";

/**
 * GET /api/event_progress.php: the goal bar's figures (approved orders per tier, KES raised),
 * public and the same for everyone, so browsers and proxies may keep it for a few seconds.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const progress = await eventProgress(context.db);
  return Response.json({ ok: true, ...progress }, { headers: { "Cache-Control": "public, max-age=5" } });
}
