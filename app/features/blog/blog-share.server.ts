import type { Db } from "~/lib/db.server";
import { escapeHtml as e } from "~/lib/email-layout";
import { absoluteUrl } from "~/lib/http.server";
import { clearPageCache } from "~/lib/page-cache.server";
import { site } from "~/lib/site";
import { DEFAULT_COVER, type BlogPost } from "./blog";
import { SLUG_PATTERN } from "./blog.schema";
import { getPost, listPosts } from "./blog.server";

/** The file part of /share/blogs/{slug}.html. */
export const SHARE_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.html$/;
const MAX_SLUG = 80;

export const blogSharePath = (slug: string) => `/share/blogs/${slug}.html`;
/** Where a share page sends people: the post, marked so its view counts as coming from a share. */
export const blogShareTarget = (slug: string) => `/blogs/${slug}?src=share`;

/** The post a share file names, or null (a bad file name is never looked up). */
export async function findSharePost(db: Db, file: string | undefined): Promise<BlogPost | null> {
  const slug = SHARE_FILE.exec(file ?? "")?.[1];
  if (!slug || slug.length > MAX_SLUG) return null;
  return (await getPost(db, slug)) ?? null;
}

/**
 * 'Generate Social Share Files': share pages are drawn from the saved posts on each request,
 * so there is nothing to write. This counts the posts that have one (every saved post) and
 * drops cached pages so they show what was saved.
 */
export async function generateBlogShares(db: Db): Promise<{ count: number }> {
  const posts = await listPosts(db);
  clearPageCache();
  return { count: posts.filter((p) => SLUG_PATTERN.test(p.slug) && p.slug.length <= MAX_SLUG).length };
}

export const sharePagesText = (count: number) => `${count} ${count === 1 ? "page" : "pages"}`;

const absolute = (src: string) => (/^https:\/\//i.test(src) ? src : absoluteUrl(src || DEFAULT_COVER));
const isoDay = (date: string) => (/^\d{4}-\d{2}-\d{2}$/.test(date) && Number.isFinite(Date.parse(date)) ? date : null);

/** The small page /share/blogs/{slug}.html answers: link-preview tags, then on to the post. */
export function blogSharePage(post: BlogPost): string {
  const target = blogShareTarget(post.slug);
  const description = post.summary || `A story from ${site.name}, ${site.tagline.toLowerCase()}.`;
  const image = absolute(post.image);
  const published = isoDay(post.date);
  const byline = [post.author, post.date].filter(Boolean).join(" · ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(`${post.title} | ${site.name}`)}</title>
<meta name="description" content="${e(description)}">
<link rel="canonical" href="${e(absoluteUrl(`/blogs/${post.slug}`))}">
<meta property="og:type" content="article">
<meta property="og:site_name" content="${e(site.name)}">
<meta property="og:title" content="${e(post.title)}">
<meta property="og:description" content="${e(description)}">
<meta property="og:image" content="${e(image)}">
<meta property="og:image:alt" content="${e(post.title)}">
<meta property="og:url" content="${e(absoluteUrl(blogSharePath(post.slug)))}">
${post.author ? `<meta property="article:author" content="${e(post.author)}">\n` : ""}${published ? `<meta property="article:published_time" content="${e(published)}">\n` : ""}${post.tags.map((t) => `<meta property="article:tag" content="${e(t)}">\n`).join("")}<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:title" content="${e(post.title)}">
<meta name="twitter:description" content="${e(description)}">
<meta name="twitter:image" content="${e(image)}">
<meta http-equiv="refresh" content="${e(`0; url=${target}`)}">
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:36rem;padding:0 1rem;color:#1c2430}a{color:#123b5d}</style>
</head>
<body>
<h1>${e(post.title)}</h1>
${byline ? `<p>${e(byline)}</p>\n` : ""}${post.summary ? `<p>${e(post.summary)}</p>\n` : ""}<p><a href="${e(target)}">Read the post on ${e(site.name)}</a></p>
</body>
</html>
`;
}

export function blogShareNotFoundPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Article not found | ${e(site.name)}</title>
</head>
<body>
<h1>Article not found</h1>
<p>That post is not on the blog any more. <a href="/blogs">See all posts</a>.</p>
</body>
</html>
`;
}
