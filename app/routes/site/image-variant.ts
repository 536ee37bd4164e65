import { textResponse } from "~/lib/http/http.server";
import { imageVariant, parseVariant } from "~/features/images/variants.server";
import type { Route } from "./+types/image-variant";

/** GET /img/:width/images/….<avif|webp>: a site picture in a phone's size and a modern format. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const wanted = parseVariant(params.width, params["*"]);
  const variant = wanted ? await imageVariant(wanted.src, wanted.width, wanted.format) : null;
  if (!variant) return textResponse(404, "No such image.");
  const headers = {
    "Content-Type": variant.type,
    // Made from files of the build: a day fresh, then checked again by ETag.
    "Cache-Control": "public, max-age=86400",
    ETag: variant.etag,
  };
  if (request.headers.get("if-none-match") === variant.etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(variant.bytes), { status: 200, headers });
}
