import { textResponse } from "~/lib/http/http.server";
import { teamBadgeImage } from "~/features/team-badges/team-badges.server";
import { badgeDownloadFilename } from "~/features/team-badges/team-badges";
import type { Route } from "./+types/badge-image";

const FILE = /^([a-z0-9][a-z0-9_-]{0,39})\.png$/i;

/** /open/badges/{id}.png: the badge at 1080x1080 (or ?w=256|512), ?download=1 to save it. */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const id = FILE.exec(params.file)?.[1];
  const image = id ? await teamBadgeImage(context.db, id, { width: Number(url.searchParams.get("w")) || null }) : null;
  if (!image) return textResponse(404, "Not found");
  const headers = new Headers({
    "Content-Type": "image/png",
    "Cache-Control": "public, max-age=3600",
    ETag: image.etag,
  });
  if (url.searchParams.get("download") === "1") {
    const name = badgeDownloadFilename(image.badge.title, image.badge.id);
    const ascii = name.replace(/[^A-Za-z0-9._-]/g, "_");
    headers.set("Content-Disposition", `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`);
  }
  if (request.headers.get("if-none-match")?.split(/\s*,\s*/).includes(image.etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(await image.bytes()), { headers });
}
