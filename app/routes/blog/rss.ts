import { listPosts } from "~/features/blog/blog.server";
import { rssFeed } from "~/features/blog/feeds.server";
import type { Route } from "./+types/rss";

/** /blogs/rss.xml: the posts as an RSS 2.0 feed. */
export async function loader({ context }: Route.LoaderArgs) {
  const xml = rssFeed(await listPosts(context.db));
  return new Response(xml, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
