import crypto from "node:crypto";
import type { z } from "zod";
import { logAction } from "~/features/activity/activity.server";
import type { Actor } from "~/lib/core/actor";
import { type Db } from "~/lib/db/db.server";
import { isZodWording, listIssues, type ListIssue } from "~/features/admin/list-editor";
import { clearPageCache } from "~/lib/http/page-cache.server";
import { type BlogPost } from "../blog";
import { BlogListSchema, type BlogPostInput } from "../blog.schema";
import { getPost, notificationStatus, notifyNewBlog, savePosts } from "../blog.server";
import { DomainError } from "~/lib/core/domain-error";
import { generateBlogShares, sharePagesText } from "../blog-share.server";
import { notifiedText, type NotifyStatus, type RowField } from "./blog-admin-screen";

// ---------------------------------------------------------------- shared with the JSON API

export type PostsCheck =
  | { ok: true; posts: BlogPostInput[] }
  | { ok: false; message: string; issues: ListIssue<RowField>[] };

const FIELD_LABEL: Record<RowField, string> = {
  slug: "slug",
  title: "title",
  summary: "summary",
  author: "author",
  date: "date",
  tags: "tags",
  image: "image",
  url: "LinkedIn link",
  audioVideoId: "audio video id",
  contentHtml: "content",
};

/** Zod's own words ("Too big: expected ...") only where the schema has none of its own. */
function issueWords(issue: z.core.$ZodIssue, field: RowField | null): string {
  if (!isZodWording(issue.message)) return issue.message;
  const label = field ? FIELD_LABEL[field] : "post";
  const inList = issue.path.length > 2;
  if (issue.code === "too_big") {
    if (inList) return `Each tag must be at most ${String(issue.maximum)} characters.`;
    return `The ${label} must be at most ${String(issue.maximum)} characters.`;
  }
  if (issue.code === "too_small") return inList ? "Tags cannot be blank." : `The ${label} is required.`;
  if (issue.code === "invalid_type") return `The ${label} must be ${issue.expected === "array" ? "a list" : `a ${issue.expected}`}.`;
  return `The ${label} is not valid.`;
}

/**
 * Validates a whole list of posts (formats, unique slugs) with the one message staff see:
 * the first problem, naming the post unless the message already does.
 */
export function checkPosts(items: unknown[]): PostsCheck {
  const parsed = BlogListSchema.safeParse(items);
  if (parsed.success) return { ok: true, posts: parsed.data };
  const issues = listIssues(parsed.error.issues, (key) => (key in FIELD_LABEL ? (key as RowField) : null), issueWords);
  // A shared slug is marked on every post that has it, not only the later one.
  const slugOf = (i: number) => {
    const v = (items[i] as { slug?: unknown } | null | undefined)?.slug;
    return typeof v === "string" ? v.trim() : undefined;
  };
  for (const issue of [...issues]) {
    if (issue.code !== "custom" || issue.field !== "slug") continue;
    const earlier = items.findIndex((_, i) => slugOf(i) === slugOf(issue.index));
    if (earlier >= 0 && earlier !== issue.index) issues.push({ ...issue, index: earlier });
  }
  const first = issues[0]!;
  const item = items[first.index] as { slug?: unknown; title?: unknown } | undefined;
  const name = [item?.slug, item?.title].find((v): v is string => typeof v === "string" && v.trim() !== "")?.trim();
  // Duplicates name their slug already: 'Two posts share the slug "x".'
  const named = first.code === "custom" && first.field === "slug";
  const where = item ? `Post ${first.index + 1}${name ? ` (${name.slice(0, 60)})` : ""}` : "";
  const message = named || !where ? first.message : `${where}: ${first.message}`;
  return { ok: false, message, issues: issues.map(({ index, field, message }) => ({ index, field, message })) };
}

/** Saves the list (savePosts sanitises the HTML), drops cached pages and logs 'blogs.save'. */
export async function saveBlogList(db: Db, posts: BlogPostInput[], actor: Actor) {
  const saved = await savePosts(db, posts);
  clearPageCache();
  await logAction(db, actor, {
    type: "blogs.save",
    message: `Blog posts saved (${saved.length} ${saved.length === 1 ? "post" : "posts"})`,
    meta: { count: saved.length },
  });
  return saved;
}

/** 'Generate Social Share Files': how many posts have a share page; logs 'blogs.generate_share'. */
export async function generateBlogShareFiles(db: Db, actor: Actor) {
  const { count } = await generateBlogShares(db);
  await logAction(db, actor, {
    type: "blogs.generate_share",
    message: `Blog share pages ready: ${sharePagesText(count)}`,
    meta: { count },
  });
  return { count };
}

/** 'Notify Subscribers': answers at once with the count; the mail is queued in the background. */
export async function notifyBlogSubscribers(db: Db, slug: string, actor: Actor) {
  const run = await notifyNewBlog(db, slug);
  await logAction(db, actor, {
    type: "blogs.notify",
    message: `Subscribers notified of ${slug}: ${notifiedText(run.recipients)}`,
    meta: { slug, notification: run.id, recipients: run.recipients },
  });
  return run;
}

/**
 * What 'Notify Subscribers' asks before it sends: how many people it would email now (the active
 * subscribers), and the post's last run, if any. An unsaved post is not found.
 */
export async function notifyQuestion(db: Db, slug: string): Promise<{ audience: number; earlier: NotifyStatus | undefined }> {
  if (!(await getPost(db, slug))) throw new DomainError("not_found", "Unknown post.");
  const { n } = await db.selectFrom("subscribers").select(db.fn.countAll<number>().as("n")).where("status", "=", "active").executeTakeFirstOrThrow();
  const earlier = (await latestNotifications(db))[slug];
  return { audience: Number(n), earlier };
}

/** The latest notify run of each post, with its counts. */
export async function latestNotifications(db: Db): Promise<Record<string, NotifyStatus>> {
  const latest = await db
    .selectFrom("blog_notifications")
    .select(["id", "slug", "created_at"])
    .where("id", "in", db.selectFrom("blog_notifications").select((eb) => eb.fn.max("id").as("id")).groupBy("slug"))
    .execute();
  const out: Record<string, NotifyStatus> = {};
  for (const n of latest) {
    const status = await notificationStatus(db, n.id);
    if (status) out[n.slug] = { ...status, createdAt: n.created_at };
  }
  return out;
}

// ---------------------------------------------------------------- /blogs/admin

export const version = (posts: BlogPost[]) =>
  crypto.createHash("sha256").update(JSON.stringify(posts)).digest("base64url").slice(0, 16);

export const currentYear = () => String(new Date().getFullYear());

/** The posts as saved (and a version that changes with them), for signed-in staff. */
