import { blogShareNotFoundPage, blogSharePage, findSharePost } from "~/features/blog/blog-share.server";
import { sharePageResponse } from "~/lib/share-page.server";
import type { Route } from "./+types/blog-share";

/** /share/blogs/{slug}.html: link-preview tags for a post, then on to /blogs/{slug}?src=share. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const post = await findSharePost(context.db, params.file);
  return post ? sharePageResponse(blogSharePage(post), true) : sharePageResponse(blogShareNotFoundPage(), false);
}
