import type { Db } from "~/lib/db/db.server";
import { renderShareNotFound, renderSharePage } from "~/lib/http/share-page.server";
import { absoluteUrl } from "~/lib/http/http.server";
import { clearPageCache } from "~/lib/http/page-cache.server";
import { site } from "~/lib/core/site";
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
  return renderSharePage({
    pageTitle: `${post.title} | ${site.name}`,
    description,
    canonical: absoluteUrl(`/blogs/${post.slug}`),
    shareUrl: absoluteUrl(blogSharePath(post.slug)),
    image,
    imageAlt: post.title,
    ogType: "article",
    ogTitle: post.title,
    extraMeta: [
      ...(post.author ? [{ property: "article:author", content: post.author }] : []),
      ...(published ? [{ property: "article:published_time", content: published }] : []),
      ...post.tags.map((t) => ({ property: "article:tag", content: t })),
    ],
    target,
    heading: post.title,
    lines: [byline, post.summary].filter(Boolean),
    linkText: `Read the post on ${site.name}`,
  });
}

export function blogShareNotFoundPage(): string {
  return renderShareNotFound({
    title: "Article not found",
    message: "That post is not on the blog any more.",
    linkHref: "/blogs",
    linkText: "See all posts",
  });
}
