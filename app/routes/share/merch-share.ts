import { findShareItem, merchShareNotFoundPage, merchSharePage } from "~/features/merch/merch-share.server";
import { getDb } from "~/lib/db.server";
import type { Route } from "./+types/merch-share";

/** /share/merchandise/{slug}.html: link-preview tags for an item, then on to /merchandise?item={slug}. */
export async function loader({ params }: Route.LoaderArgs) {
  const item = await findShareItem(await getDb(), params.file);
  return new Response(item ? merchSharePage(item) : merchShareNotFoundPage(), {
    status: item ? 200 : 404,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": item ? "public, max-age=300" : "no-store",
    },
  });
}
