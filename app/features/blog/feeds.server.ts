import { absoluteUrl } from "~/lib/http/http.server";
import { site } from "~/lib/core/site";
import type { BlogPost } from "./blog";

/** XML text and attribute values; control characters XML 1.0 forbids are dropped. */
export const escapeXml = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

/**
 * A post's date as a point in time, when it names a day: staff type dates as text, and a bare
 * year (the default) or month would put the post on the 1st, which it was not.
 */
export function postTime(date: string): Date | null {
  const text = date.trim();
  if (!text || /^\d{4}(-\d{1,2})?$/.test(text)) return null;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

export const postUrl = (slug: string) => absoluteUrl(`/blogs/${slug}`);

/** /blogs/rss.xml: RSS 2.0, one item per post in the blog's order. */
export function rssFeed(posts: BlogPost[], now = new Date()): string {
  const x = escapeXml;
  const items = posts
    .map((p) => {
      const link = postUrl(p.slug);
      const when = postTime(p.date);
      return [
        "    <item>",
        `      <title>${x(p.title)}</title>`,
        `      <link>${x(link)}</link>`,
        `      <guid isPermaLink="true">${x(link)}</guid>`,
        when ? `      <pubDate>${when.toUTCString()}</pubDate>` : null,
        p.author ? `      <dc:creator>${x(p.author)}</dc:creator>` : null,
        ...p.tags.map((t) => `      <category>${x(t)}</category>`),
        `      <description>${x(p.summary)}</description>`,
        "    </item>",
      ]
        .filter((l) => l !== null)
        .join("\n");
    })
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${x(`${site.name} blog`)}</title>
    <link>${x(absoluteUrl("/blogs"))}</link>
    <atom:link href="${x(absoluteUrl("/blogs/rss.xml"))}" rel="self" type="application/rss+xml"/>
    <description>${x(`Stories and notes from ${site.name}: ${site.tagline}.`)}</description>
    <language>en</language>
    <lastBuildDate>${now.toUTCString()}</lastBuildDate>
${items}
  </channel>
</rss>
`;
}

/** The public pages, in the order of the footer's links. */
export const SITEMAP_PAGES = [
  "/",
  "/about",
  "/join",
  "/privacy",
  "/vespers",
  "/ministry",
  "/event",
  "/badges",
  "/merchandise",
  "/blogs",
] as const;

/** /sitemap.xml: the public pages and every post, absolute from PUBLIC_URL. */
export function sitemapXml(posts: BlogPost[]): string {
  const x = escapeXml;
  const entry = (loc: string, lastmod?: string) =>
    `  <url>\n    <loc>${x(loc)}</loc>\n${lastmod ? `    <lastmod>${x(lastmod)}</lastmod>\n` : ""}  </url>`;
  const urls = [
    ...SITEMAP_PAGES.map((p) => entry(absoluteUrl(p))),
    ...posts.map((p) => entry(postUrl(p.slug), postTime(p.date)?.toISOString().slice(0, 10))),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join("\n")}
</urlset>
`;
}

/** Staff screens, the JSON calls and the design surface are not for search engines. */
export const ROBOTS_DISALLOW = ["/admin", "/api/", "/blogs/admin", "/merchandise/admin", "/event/previews"] as const;

export function robotsTxt(): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`),
    "",
    `Sitemap: ${absoluteUrl("/sitemap.xml")}`,
    "",
  ].join("\n");
}
