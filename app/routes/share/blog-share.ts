import { findPostAlias } from "~/features/blog/aliases.server";
import { blogShareNotFoundPage, blogSharePage, blogSharePath, findSharePost } from "~/features/blog/blog-share.server";
import { sharePageResponse } from "~/lib/http/share-page.server";
import type { Route } from "./+types/blog-share";

/** /share/blogs/{slug}.html: link-preview tags for a post, then on to /blogs/{slug}?src=share. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const post = await findSharePost(context.db, params.file);
  if (post) return sharePageResponse(blogSharePage(post), true);
  // A post's old address (the old site's slug) moves for good to its share page.
  const old = /^([A-Za-z0-9_-]{1,120})\.html$/.exec(params.file ?? "")?.[1];
  const moved = old ? await findPostAlias(context.db, old) : null;
  if (moved) return new Response(null, { status: 301, headers: { Location: blogSharePath(moved) } });
  return sharePageResponse(blogShareNotFoundPage(), false);
}
