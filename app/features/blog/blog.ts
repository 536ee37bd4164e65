/** The blog's shared words, shapes and rules (spec sections 3, 4, 8, 9); safe for the browser. */
export type BlogPost = {
  slug: string;
  title: string;
  summary: string;
  author: string;
  date: string;
  tags: string[];
  image: string;
  url: string;
  audioVideoId?: string;
  contentHtml?: string;
  /** The series the post belongs to (its page: /blogs/series/{id}). */
  seriesId?: string;
  /** Its place in that series (the old site's episodeNumber). */
  episodeNumber?: number;
};

export const REACTIONS = ["like", "love", "insightful", "pray", "clap"] as const;
export type Reaction = (typeof REACTIONS)[number];
export type ReactionCounts = Record<Reaction, number>;
export const REACTION_LABELS: Record<Reaction, string> = {
  like: "Like",
  love: "Love",
  insightful: "Insightful",
  pray: "Praying",
  clap: "Applause",
};
export const emptyCounts = (): ReactionCounts => ({ like: 0, love: 0, insightful: 0, pray: 0, clap: 0 });

export const DEFAULT_COVER = "/images/blog/default-cover.webp";

/**
 * True for a cover address known to be dead: a LinkedIn media address (media.licdn.com) past the
 * expiry time in its `e=` parameter (seconds). Decided where the page is drawn, on the server
 * too, so the default cover shows without scripts.
 */
export function isExpiredCover(src: string, now: number = Date.now()): boolean {
  if (!src.startsWith("https://media.licdn.com/")) return false;
  const e = /[?&]e=(\d{9,11})(?:&|$)/.exec(src)?.[1];
  return !!e && Number(e) * 1000 <= now;
}
export const BLOG_SOURCE = "blogs";
export const BLOG_INDEX_SOURCE = "blogs:index";
export const blogSource = (slug: string) => `blogs:${slug}`;

/** The feedback poll: four options, each rated 1 to 5 ("Inspired me:4"). */
export const FEEDBACK_OPTIONS = ["Inspired me", "Learned something", "Will share it", "Prayed"] as const;
export const RATING_STEPS = [1, 2, 3, 4, 5] as const;
export const feedbackPollId = (slug: string) => `blog-${slug}-feedback`;
export const feedbackPollOptions = () => FEEDBACK_OPTIONS.flatMap((o) => RATING_STEPS.map((r) => `${o}:${r}`));

/** The generic poll of each post, with the spec's defaults. */
export const DEFAULT_POLL_QUESTION = "What do you think?";
export const DEFAULT_POLL_OPTIONS = "Yes,No";
export const postPollId = (slug: string) => `blog-${slug}-poll`;

export const BLOG_MESSAGES = {
  notFound: "Article not found",
  embedHint: "Reader may be blocked by the source site. Open the original article below.",
  subscribed: "Thanks! We have your email.",
  subscribeFailed: "Something went wrong",
  networkError: "Network error",
  saved: "Saved successfully",
  saveFailed: (text: string) => `Save failed: ${text}`,
  generated: (text: string) => `Share pages generated: ${text}`,
  generateFailed: (text: string) => `Generate failed: ${text}`,
  notified: (text: string) => `Notified subscribers: ${text}`,
  notifyFailed: "Notify failed",
  notifyAgain: (when: string) => `Subscribers were already notified about this post on ${when}. Send it to them again?`,
  notifyFirst: (people: string) => `Email this post to ${people}?`,
} as const;

/** Up to three other posts sharing the most tags with `post` (a score above 0), newest first on ties. */
export function relatedPosts(posts: BlogPost[], post: BlogPost, max = 3): BlogPost[] {
  const tags = new Set(post.tags.map((t) => t.toLowerCase()));
  return posts
    .filter((p) => p.slug !== post.slug)
    .map((p) => ({ p, score: p.tags.filter((t) => tags.has(t.toLowerCase())).length }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || b.p.date.localeCompare(a.p.date))
    .slice(0, max)
    .map((x) => x.p);
}

/** Tags as staff type them: comma-split, trimmed, blanks dropped. */
export const parseTags = (text: string) =>
  text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
