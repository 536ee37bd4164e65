import { data, type AppLoadContext } from "react-router";
import { z } from "zod";
import type { Reply } from "~/lib/core/forms";
import { isTicked, readRowFields } from "~/features/admin/list-editor";
import { formatNairobiTimeEat } from "~/lib/core/nairobi-time";
import { issuesOnRows, rowsToSave } from "~/features/admin/list-editor";
import { requireStaff } from "~/features/admin/staff-auth.server";
import type { Actor } from "~/lib/core/actor";
import { httpErrorOf } from "~/lib/http/http.server";
import { formOf, intentOf, parseSubmission, readForm, submissionOf, type Submission } from "~/lib/forms/submission.server";
import { BLOG_MESSAGES as M } from "~/features/blog/blog";
import { SLUG_PATTERN } from "~/features/blog/blog.schema";
import { listPosts } from "~/features/blog/blog.server";
import { sharePagesText } from "~/features/blog/blog-share.server";
import {
  EDITOR_PATH,
  FIELD_NAME,
  countText,
  isBlankRow,
  notifiedText,
  postToRow,
  ROW_FIELDS,
  rowToPost,
  type EditorResult,
  type EditorRow,
  type RowField,
} from "~/features/blog/admin/blog-admin-screen";
import {
  checkPosts,
  saveBlogList,
  generateBlogShareFiles,
  notifyBlogSubscribers,
  latestNotifications,
  notifyQuestion,
  version,
  currentYear,
} from "~/features/blog/admin/blog-admin.server";

export async function loadBlogEditorScreen(context: AppLoadContext) {
  const db = context.db;
  const posts = await listPosts(db);
  return {
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

const notifyFailed = (reason: string, slug?: string): Reply<EditorResult> => ({
  intent: "notify",
  status: "error",
  message: M.notifyFailed,
  result: slug === undefined ? { reason } : { slug, reason },
});

/** The notify form: a saved post's slug, and the second press when it was notified before. */
const NotifySchema = z.object({
  slug: z.preprocess((v) => (typeof v === "string" ? v : "").trim(), z.string().max(80).regex(SLUG_PATTERN)),
  confirmed: z.preprocess((v) => v === "yes", z.boolean()),
});

const reply = (body: Reply<EditorResult>, status: number) => data(body, status);

/** The screen's forms: intent save or share (the editor form), or notify with a slug. */
export async function blogEditorAction(request: Request, context: AppLoadContext) {
  const actor = await requireStaff(request, context, EDITOR_PATH);
  let submission: Submission;
  try {
    submission = submissionOf(await readForm(request, 4 * 1024 * 1024));
  } catch (e) {
    const refused = httpErrorOf(e);
    if (!refused) throw e;
    return reply({ intent: "save", status: "error", message: M.saveFailed(refused.message) }, refused.status);
  }
  const intent = intentOf(submission);
  switch (intent) {
    case "save":
      return saveAction(context, submission, actor);
    case "share":
      return shareAction(context, submission, actor);
    case "notify":
      return notifyAction(context, submission, actor);
    default: {
      const rows = readEditorRows(formOf(submission));
      return reply({ intent: "save", status: "error", message: "Unknown action.", result: { rows: rows.length > 0 ? rows : undefined } }, 400);
    }
  }
}

/** Save Changes: every post checked, then the whole list written. */
async function saveAction(context: AppLoadContext, submission: Submission, actor: Actor) {
  const rows = readEditorRows(formOf(submission));
  if (rows.length === 0) return reply({ intent: "save", status: "error", message: M.saveFailed("no posts were sent. Reload the page and try again.") }, 400);
  const kept = rowsToSave(rows, isBlankRow);
  const check = checkPosts(kept.map(({ row }) => rowToPost(row)));
  if (!check.ok) {
    return reply({ intent: "save", status: "error", message: M.saveFailed(check.message), result: { rows, issues: issuesOnRows(check.issues, kept) } }, 400);
  }
  try {
    await saveBlogList(context.db, check.posts, actor);
  } catch (e) {
    // Nothing a save refuses after its check is for staff to fix: it was not written.
    console.error("[blog-editor] save failed", e);
    return reply({ intent: "save", status: "error", message: M.saveFailed("the posts could not be written. Nothing was changed; please try again."), result: { rows } }, 500);
  }
  return reply({ intent: "save", status: "success", message: M.saved }, 200);
}

/** Generate Share Files from the saved list; unsaved edits stay on screen. */
async function shareAction(context: AppLoadContext, submission: Submission, actor: Actor) {
  const rows = readEditorRows(formOf(submission));
  const shown = rows.length > 0 ? rows : undefined;
  try {
    const { count } = await generateBlogShareFiles(context.db, actor);
    return reply({ intent: "share", status: "success", message: M.generated(sharePagesText(count)), result: { rows: shown } }, 200);
  } catch (e) {
    console.error("[blog-editor] share failed", e);
    return reply({ intent: "share", status: "error", message: M.generateFailed("the share pages could not be prepared. Please try again."), result: { rows: shown } }, 500);
  }
}

/**
 * Notify subscribers of a saved post. Everyone on the list gets an email that cannot be called
 * back: every send takes a second, confirming press that says how many people (and, for a
 * repeat, when they last got it). The server's step, so it holds without JavaScript too.
 */
async function notifyAction(context: AppLoadContext, submission: Submission, actor: Actor) {
  const parsed = parseSubmission(submission, NotifySchema, "fields");
  if (!parsed.ok) return data(notifyFailed("Choose a saved post to notify subscribers about."), 400);
  const { slug, confirmed } = parsed.value;
  const db = context.db;
  try {
    if (!confirmed) {
      const { earlier, audience } = await notifyQuestion(db, slug);
      const message = earlier ? M.notifyAgain(formatNairobiTimeEat(earlier.createdAt)) : M.notifyFirst(countText(audience, "subscriber"));
      return reply({ intent: "notify", status: "success", message, result: { slug, notification: earlier, confirm: "notify", audience } }, 200);
    }
    const run = await notifyBlogSubscribers(db, slug, actor);
    const notification = await latestNotifications(db).then((all) => all[slug]);
    return reply({ intent: "notify", status: "success", message: M.notified(notifiedText(run.recipients)), result: { slug, notification } }, 200);
  } catch (e) {
    const refused = httpErrorOf(e);
    if (refused && refused.status < 500) {
      return data(notifyFailed(refused.status === 404 ? "That post is not saved yet: save it first." : "Nothing was sent. Please try again.", slug), refused.status);
    }
    console.error("[blog-editor] notify failed", e);
    return data(notifyFailed("Nothing was sent. Please try again.", slug), 500);
  }
}
