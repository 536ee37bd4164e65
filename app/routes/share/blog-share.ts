import { blogShareNotFoundPage, blogSharePage, findSharePost } from "~/features/blog/blog-share.server";
import { getDb } from "~/lib/db.server";
import type { Route } from "./+types/blog-share";

/** /share/blogs/{slug}.html: link-preview tags for a post, then on to /blogs/{slug}?src=share. */
export async function loader({ params }: Route.LoaderArgs) {
  const post = await findSharePost(await getDb(), params.file);
  return new Response(post ? blogSharePage(post) : blogShareNotFoundPage(), {
    status: post ? 200 : 404,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": post ? "public, max-age=300" : "no-store",
    },
  });
}
