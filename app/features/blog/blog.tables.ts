import type { Generated } from "kysely";

export interface BlogPostsTable {
  slug: string;
  title: string;
  summary: string;
  author: string;
  date: string;
  /** JSON array of strings. */
  tags: string;
  image: string;
  url: string;
  audio_video_id: string | null;
  /** Already sanitised when saved; sanitised again when shown. */
  content_html: string | null;
  sort: number;
  updated_at: string;
  /** The series the post belongs to (blog_series.id), and its place in it. */
  series_id: string | null;
  series_order: number | null;
}

/** A series of posts (the old site's series.json items). */
export interface BlogSeriesTable {
  id: string;
  title: string;
  summary: string;
  image: string;
  /** As the old site gave it (display only), or null. */
  created_at: string | null;
  sort: number;
  updated_at: string;
}

/** An old address of a post (a slug this site cannot use, or the old tracker's form of it). */
export interface BlogSlugAliasesTable {
  old_slug: string;
  slug: string;
}

export interface BlogReactionsTable {
  slug: string;
  reaction: string;
  cid: string;
  created_at: string;
}

export interface PollsTable {
  id: string;
  question: string;
  created_at: string;
}

export interface PollOptionsTable {
  poll_id: string;
  option: string;
  sort: number;
}

export interface PollVotesTable {
  poll_id: string;
  option: string;
  cid: string;
  created_at: string;
}

export interface BlogNotificationsTable {
  id: Generated<number>;
  slug: string;
  recipients: number;
  queued: number;
  created_at: string;
  /** The run queues mail to active subscribers with a greater id, a batch per transaction. */
  after_subscriber_id: Generated<number>;
  /** While a process works on the run: until when (another takes over after). */
  claimed_until: string | null;
  done_at: string | null;
}

export interface BlogTables {
  blog_posts: BlogPostsTable;
  blog_reactions: BlogReactionsTable;
  polls: PollsTable;
  poll_options: PollOptionsTable;
  poll_votes: PollVotesTable;
  blog_notifications: BlogNotificationsTable;
  blog_series: BlogSeriesTable;
  blog_slug_aliases: BlogSlugAliasesTable;
}
