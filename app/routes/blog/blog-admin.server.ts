import { data, type AppLoadContext } from "react-router";
import type { Reply } from "~/lib/forms";
import { issuesOnRows, isTicked, readRowFields, rowsToSave } from "~/features/admin/list-editor";
import { formatNairobiTimeEat } from "~/lib/nairobi-time";
import { staff, type Actor } from "~/lib/actor";
import { requireAdminSession } from "~/lib/admin.server";
import { type Db } from "~/lib/db.server";
import { readForm } from "~/lib/submission.server";
import { clientAddress, httpErrorOf } from "~/lib/http.server";
import { BLOG_MESSAGES as M } from "~/features/blog/blog";
import { SLUG_PATTERN } from "~/features/blog/blog.schema";
import { listPosts } from "~/features/blog/blog.server";
import { sharePagesText } from "~/features/blog/blog-share.server";
import {
  EDITOR_PATH,
  FIELD_NAME,
  isBlankRow,
  notifiedText,
  postToRow,
  ROW_FIELDS,
  rowToPost,
  type EditorResult,
  type EditorRow,
  type FieldIssue,
  type RowField,
} from "~/features/blog/admin/blog-admin-screen";
import {
  checkPosts,
  saveBlogList,
  generateBlogShareFiles,
  notifyBlogSubscribers,
  latestNotifications,
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

const reply = (body: Reply<EditorResult>, status: number) => data(body, status);

async function saveEditor(db: Db, typed: EditorRow[], actor: Actor) {
  if (typed.length === 0) {
    return reply({ intent: "save", status: "error", message: M.saveFailed("no posts were sent. Reload the page and try again.") }, 400);
  }
  // Every fieldset comes back in place (blank ones too), so issues and inputs keep their rows.
  const kept = rowsToSave(typed, isBlankRow);
  const check = checkPosts(kept.map(({ row }) => rowToPost(row)));
  if (!check.ok) {
    const issues: FieldIssue[] = issuesOnRows(check.issues, kept);
    return reply({ intent: "save", status: "error", message: M.saveFailed(check.message), result: { rows: typed, issues } }, 400);
  }
  try {
    await saveBlogList(db, check.posts, actor);
  } catch (e) {
    console.error("[blog-admin] saving the posts failed", e);
    return reply({ intent: "save", status: "error", message: M.saveFailed("the posts could not be written. Nothing was changed; please try again."), result: { rows: typed } }, 500);
  }
  return reply({ intent: "save", status: "success", message: M.saved }, 200);
}

async function shareEditor(db: Db, typed: EditorRow[], actor: Actor) {
  // Unsaved edits in the same form stay on screen: share pages show the saved posts.
  const rows = typed.length > 0 ? typed : undefined;
  try {
    const { count } = await generateBlogShareFiles(db, actor);
    return reply({ intent: "share", status: "success", message: M.generated(sharePagesText(count)), result: { rows } }, 200);
  } catch (e) {
    console.error("[blog-admin] share generation failed", e);
    return reply({ intent: "share", status: "error", message: M.generateFailed("the share pages could not be prepared. Please try again."), result: { rows } }, 500);
  }
}

async function notifyEditor(db: Db, rawSlug: string, actor: Actor, confirmed: boolean) {
  const slug = rawSlug.trim();
  if (!SLUG_PATTERN.test(slug) || slug.length > 80) {
    return reply({ intent: "notify", status: "error", message: M.notifyFailed, detail: "Choose a saved post to notify subscribers about." }, 400);
  }
  // Everyone on the list would get the post again: a repeat takes a second, confirming press
  // (the server's step, so it holds without JavaScript too).
  const earlier = await latestNotifications(db).then((all) => all[slug]);
  if (earlier && !confirmed) {
    return reply(
      { intent: "notify", status: "success", message: M.notifyAgain(formatNairobiTimeEat(earlier.createdAt)), result: { slug, notification: earlier, confirm: "notify" } },
      200,
    );
  }
  try {
    const run = await notifyBlogSubscribers(db, slug, actor);
    const notification = await latestNotifications(db).then((all) => all[slug]);
    return reply({ intent: "notify", status: "success", message: M.notified(notifiedText(run.recipients)), result: { slug, notification } }, 200);
  } catch (e) {
    const http = httpErrorOf(e);
    const known = http && http.status < 500 ? http : null;
    if (!known) console.error(`[blog-admin] notify ${slug} failed`, e);
    const detail = known?.status === 404 ? "That post is not saved yet: save it first." : "Nothing was sent. Please try again.";
    return reply({ intent: "notify", status: "error", message: M.notifyFailed, detail, result: { slug } }, known ? known.status : 500);
  }
}

/** The screen's forms: intent save or share (the editor form), or notify with a slug. */
export async function blogEditorAction(request: Request, context: AppLoadContext) {
  await requireAdminSession(context.db, request, EDITOR_PATH);
  let form: FormData;
  try {
    form = await readForm(request, 4 * 1024 * 1024);
  } catch (e) {
    const http = httpErrorOf(e);
    if (http) return reply({ intent: "save", status: "error", message: M.saveFailed(http.message) }, http.status);
    throw e;
  }
  const db = context.db;
  const actor = staff(clientAddress(context));
  const intent = form.get("intent");
  if (intent === "notify") return notifyEditor(db, String(form.get("slug") ?? ""), actor, form.get("confirmed") === "yes");
  const typed = readEditorRows(form);
  if (intent === "save") return saveEditor(db, typed, actor);
  if (intent === "share") return shareEditor(db, typed, actor);
  return reply({ intent: "save", status: "error", message: "Unknown action.", result: { rows: typed.length ? typed : undefined } }, 400);
}

