import { findShareItem, merchShareNotFoundPage, merchSharePage } from "~/features/merch/merch-share.server";
import { sharePageResponse } from "~/lib/http/share-page.server";
import type { Route } from "./+types/merch-share";

/** /share/merchandise/{slug}.html: link-preview tags for an item, then on to /merchandise?item={slug}. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const item = await findShareItem(context.db, params.file);
  return item ? sharePageResponse(merchSharePage(item), true) : sharePageResponse(merchShareNotFoundPage(), false);
}
