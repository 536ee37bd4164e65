import { robotsTxt } from "~/features/blog/feeds.server";

/** /robots.txt: everything but the staff screens and the JSON calls; where the sitemap is. */
export function loader() {
  return new Response(robotsTxt(), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
