import { eventShareUrl } from "~/features/event-badges/preview";
import { PreviewImageSchema } from "~/features/event-badges/preview.schema";
import { PreviewBusyError, renderPreview } from "~/features/event-badges/preview.server";
import { SiteImageError } from "~/features/event-badges/site-image.server";
import { getEvent } from "~/features/event-badges/event.server";
import { env } from "~/lib/server/env.server";
import { clientAddress } from "~/lib/http/http.server";
import { consume } from "~/lib/server/rate-limit.server";
import type { Route } from "./+types/preview-image";

const text = (status: number, message: string, headers: Record<string, string> = {}) =>
  new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });

// Two images per edit on the design surface; generous for people, a ceiling for scripts.
const previewLimit = { points: 240, durationSeconds: 60 };

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const query = Object.fromEntries(url.searchParams);
  const parsed = PreviewImageSchema.safeParse(query);
  if (!parsed.success) return text(400, parsed.error.issues[0]?.message ?? "Invalid preview request.");

  const limit = await consume("preview-image", previewLimit, clientAddress(context));
  if (!limit.ok) return text(429, "Too many previews. Please wait a moment.", { "Retry-After": String(limit.retryAfterSeconds) });

  const share = parsed.data.share ?? eventShareUrl(env().publicUrl, parsed.data.tier);
  try {
    const png = await renderPreview({ ...parsed.data, share, event: await getEvent(context.db) });
    return new Response(new Uint8Array(png), {
      headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=300" },
    });
  } catch (e) {
    if (e instanceof SiteImageError) return text(400, e.message);
    if (e instanceof PreviewBusyError) return text(503, e.message, { "Retry-After": "2" });
    throw e;
  }
}
