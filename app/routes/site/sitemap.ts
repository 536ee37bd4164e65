import { listPosts } from "~/features/blog/blog.server";
import { sitemapXml } from "~/features/blog/feeds.server";
import { getDb } from "~/lib/db.server";

/** /sitemap.xml: the public pages and every blog post. */
export async function loader() {
  const xml = sitemapXml(await listPosts(await getDb()));
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
