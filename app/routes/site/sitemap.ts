import { listPosts } from "~/features/blog/blog.server";
import { sitemapXml } from "~/features/blog/feeds.server";
import type { Route } from "./+types/sitemap";

/** /sitemap.xml: the public pages and every blog post. */
export async function loader({ context }: Route.LoaderArgs) {
  const xml = sitemapXml(await listPosts(context.db));
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
