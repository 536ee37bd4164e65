import { listPosts } from "~/features/blog/blog.server";
import { rssFeed } from "~/features/blog/feeds.server";
import { getDb } from "~/lib/db.server";

/** /blogs/rss.xml: the posts as an RSS 2.0 feed. */
export async function loader() {
  const xml = rssFeed(await listPosts(await getDb()));
  return new Response(xml, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
