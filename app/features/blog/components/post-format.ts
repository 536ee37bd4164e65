import { DEFAULT_COVER, type BlogPost } from "../blog";
import { dayInWordsUtc } from "~/lib/core/plain-format";

/** What a list or a related-posts card needs: no HTML body, no audio. */
export type PostCard = Pick<BlogPost, "slug" | "title" | "summary" | "author" | "date" | "tags" | "image" | "url">;

export const toCard = ({ slug, title, summary, author, date, tags, image, url }: BlogPost): PostCard => ({
  slug,
  title,
  summary,
  author,
  date,
  tags,
  image,
  url,
});

export const postPath = (slug: string) => `/blogs/${slug}`;
export const coverOf = (post: Pick<BlogPost, "image">) => post.image || DEFAULT_COVER;

/** The covers are drawn at 1200x630 (the Open Graph shape). */
export const COVER_SIZE = { width: 1200, height: 630 } as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** "2025-10-17" reads "17 October 2025"; a year or free text is shown as staff typed it. */
export function formatPostDate(date: string): string {
  if (!DAY.test(date)) return date;
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : dayInWordsUtc(d);
}

export const machineDate = (date: string) => (DAY.test(date) || /^\d{4}$/.test(date) ? date : undefined);
