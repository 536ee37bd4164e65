import crypto from "node:crypto";
import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { recordActivity } from "~/features/activity/activity.server";
import { issuesOnRows, isTicked, isZodWording, listIssues, readRowFields, rowsToSave, type ListIssue } from "~/features/admin/list-editor";
import { isAdminSession, requireAdminSession } from "~/lib/admin.server";
import { getDb, type Db } from "~/lib/db.server";
import { readForm } from "~/lib/forms.server";
import { clientAddress, HttpError } from "~/lib/http.server";
import { clearPageCache } from "~/lib/page-cache.server";
import { BLOG_MESSAGES as M, type BlogPost } from "../blog";
import { BlogListSchema, SLUG_PATTERN, type BlogPostInput } from "../blog.schema";
import { listPosts, notificationStatus, notifyNewBlog, savePosts } from "../blog.server";
import { generateBlogShares, sharePagesText } from "../blog-share.server";
import {
  EDITOR_PATH,
  FIELD_NAME,
  isBlankRow,
  notifiedText,
  postToRow,
  ROW_FIELDS,
  rowToPost,
  type EditorReply,
  type EditorRow,
  type FieldIssue,
  type NotifyStatus,
  type RowField,
} from "./blog-admin-screen";

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
export async function saveBlogList(db: Db, posts: BlogPostInput[], actorIp: string) {
  const saved = await savePosts(db, posts);
  clearPageCache();
  await recordActivity(db, {
    type: "blogs.save",
    message: `Blog posts saved (${saved.length} ${saved.length === 1 ? "post" : "posts"})`,
    meta: { count: saved.length },
    actorIp,
  });
  return saved;
}

/** 'Generate Social Share Files': how many posts have a share page; logs 'blogs.generate_share'. */
export async function generateBlogShareFiles(db: Db, actorIp: string) {
  const { count } = await generateBlogShares(db);
  await recordActivity(db, {
    type: "blogs.generate_share",
    message: `Blog share pages ready: ${sharePagesText(count)}`,
    meta: { count },
    actorIp,
  });
  return { count };
}

/** 'Notify Subscribers': answers at once with the count; the mail is queued in the background. */
export async function notifyBlogSubscribers(db: Db, slug: string, actorIp: string) {
  const run = await notifyNewBlog(db, slug);
  await recordActivity(db, {
    type: "blogs.notify",
    message: `Subscribers notified of ${slug}: ${notifiedText(run.recipients)}`,
    meta: { slug, notification: run.id, recipients: run.recipients },
    actorIp,
  });
  return run;
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

const version = (posts: BlogPost[]) =>
  crypto.createHash("sha256").update(JSON.stringify(posts)).digest("base64url").slice(0, 16);

const currentYear = () => String(new Date().getFullYear());

/** The sign-in form, or the posts as saved (and a version that changes with them). */
export async function loadBlogEditorScreen(request: Request) {
  if (!(await isAdminSession(request))) return { signedIn: false as const, returnTo: EDITOR_PATH };
  const db = await getDb();
  const posts = await listPosts(db);
  return {
    signedIn: true as const,
    rows: posts.map(postToRow),
    savedSlugs: posts.map((p) => p.slug),
    notifications: await latestNotifications(db),
    version: version(posts),
    year: currentYear(),
  };
}

/** The fieldsets as posted, in form order. */
export function readEditorRows(form: FormData): EditorRow[] {
  return readRowFields(form, FIELD_NAME).map((f) => {
    const text = Object.fromEntries(ROW_FIELDS.map((k) => [k, f.get(k) ?? ""])) as Record<RowField, string>;
    return { ...text, remove: isTicked(f, "remove") };
  });
}

const reply = (body: EditorReply, status: number) => data(body, status);

async function saveEditor(db: Db, typed: EditorRow[], actorIp: string) {
  if (typed.length === 0) {
    return reply({ intent: "save", tone: "error", message: M.saveFailed("no posts were sent. Reload the page and try again.") }, 400);
  }
  // Every fieldset comes back in place (blank ones too), so issues and inputs keep their rows.
  const kept = rowsToSave(typed, isBlankRow);
  const check = checkPosts(kept.map(({ row }) => rowToPost(row)));
  if (!check.ok) {
    const issues: FieldIssue[] = issuesOnRows(check.issues, kept);
    return reply({ intent: "save", tone: "error", message: M.saveFailed(check.message), rows: typed, issues }, 400);
  }
  try {
    await saveBlogList(db, check.posts, actorIp);
  } catch (e) {
    console.error("[blog-admin] saving the posts failed", e);
    return reply({ intent: "save", tone: "error", message: M.saveFailed("the posts could not be written. Nothing was changed; please try again."), rows: typed }, 500);
  }
  return reply({ intent: "save", tone: "success", message: M.saved }, 200);
}

async function shareEditor(db: Db, typed: EditorRow[], actorIp: string) {
  // Unsaved edits in the same form stay on screen: share pages show the saved posts.
  const rows = typed.length > 0 ? typed : undefined;
  try {
    const { count } = await generateBlogShareFiles(db, actorIp);
    return reply({ intent: "share", tone: "success", message: M.generated(sharePagesText(count)), rows }, 200);
  } catch (e) {
    console.error("[blog-admin] share generation failed", e);
    return reply({ intent: "share", tone: "error", message: M.generateFailed("the share pages could not be prepared. Please try again."), rows }, 500);
  }
}

async function notifyEditor(db: Db, rawSlug: string, actorIp: string) {
  const slug = rawSlug.trim();
  if (!SLUG_PATTERN.test(slug) || slug.length > 80) {
    return reply({ intent: "notify", tone: "error", message: M.notifyFailed, detail: "Choose a saved post to notify subscribers about." }, 400);
  }
  try {
    const run = await notifyBlogSubscribers(db, slug, actorIp);
    const notification = await latestNotifications(db).then((all) => all[slug]);
    return reply({ intent: "notify", tone: "success", message: M.notified(notifiedText(run.recipients)), slug, notification }, 200);
  } catch (e) {
    const known = e instanceof HttpError && e.status < 500;
    if (!known) console.error(`[blog-admin] notify ${slug} failed`, e);
    const detail = known && e.status === 404 ? "That post is not saved yet: save it first." : "Nothing was sent. Please try again.";
    return reply({ intent: "notify", tone: "error", message: M.notifyFailed, detail, slug }, known ? e.status : 500);
  }
}

/** The screen's forms: intent save or share (the editor form), or notify with a slug. */
export async function blogEditorAction(request: Request, context: AppLoadContext | undefined) {
  await requireAdminSession(request, EDITOR_PATH);
  let form: FormData;
  try {
    form = await readForm(request, 4 * 1024 * 1024);
  } catch (e) {
    if (e instanceof HttpError) return reply({ intent: "save", tone: "error", message: M.saveFailed(e.message) }, e.status);
    throw e;
  }
  const db = await getDb();
  const actorIp = clientAddress(context);
  const intent = form.get("intent");
  if (intent === "notify") return notifyEditor(db, String(form.get("slug") ?? ""), actorIp);
  const typed = readEditorRows(form);
  if (intent === "save") return saveEditor(db, typed, actorIp);
  if (intent === "share") return shareEditor(db, typed, actorIp);
  return reply({ intent: "save", tone: "error", message: "Unknown action.", rows: typed.length ? typed : undefined }, 400);
}

