import { data, type AppLoadContext } from "react-router";
import { z } from "zod";
import type { Reply } from "~/lib/forms";
import { isTicked, readRowFields } from "~/features/admin/list-editor";
import { formatNairobiTimeEat } from "~/lib/nairobi-time";
import { listEditorAction } from "~/features/admin/staff-flows.server";
import { staffIntent } from "~/features/admin/staff-action.server";
import { BLOG_MESSAGES as M } from "~/features/blog/blog";
import { SLUG_PATTERN, type BlogPostInput } from "~/features/blog/blog.schema";
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

const notify = staffIntent<EditorResult, typeof NotifySchema>({
  schema: NotifySchema,
  invalid: () => data(notifyFailed("Choose a saved post to notify subscribers about."), 400),
  run: async ({ slug, confirmed }, { db, actor }) => {
    // Everyone on the list gets an email that cannot be called back: every send takes a second,
    // confirming press that says how many people (and, for a repeat, when they last got it). The
    // server's step, so it holds without JavaScript too.
    if (!confirmed) {
      const { earlier, audience } = await notifyQuestion(db, slug);
      const message = earlier ? M.notifyAgain(formatNairobiTimeEat(earlier.createdAt)) : M.notifyFirst(countText(audience, "subscriber"));
      return data<Reply<EditorResult>>(
        { intent: "notify", status: "success", message, result: { slug, notification: earlier, confirm: "notify", audience } },
        200,
      );
    }
    const run = await notifyBlogSubscribers(db, slug, actor);
    const notification = await latestNotifications(db).then((all) => all[slug]);
    return data<Reply<EditorResult>>({ intent: "notify", status: "success", message: M.notified(notifiedText(run.recipients)), result: { slug, notification } }, 200);
  },
  refused: (e, _ctx, { slug }) =>
    e.status < 500 ? notifyFailed(e.status === 404 ? "That post is not saved yet: save it first." : "Nothing was sent. Please try again.", slug) : null,
  failed: (_e, _ctx, { slug }) => notifyFailed("Nothing was sent. Please try again.", slug),
});

/** The screen's forms: intent save or share (the editor form), or notify with a slug. */
export function blogEditorAction(request: Request, context: AppLoadContext) {
  return listEditorAction<EditorRow, BlogPostInput, RowField, EditorResult>(request, context, {
    name: "blog-editor",
    path: EDITOR_PATH,
    maxBytes: 4 * 1024 * 1024,
    readRows: readEditorRows,
    isBlankRow,
    emptyReason: "no posts were sent. Reload the page and try again.",
    check: (rows) => {
      const check = checkPosts(rows.map(rowToPost));
      return check.ok ? { ok: true, items: check.posts } : check;
    },
    save: saveBlogList,
    share: generateBlogShareFiles,
    words: {
      saved: M.saved,
      saveFailed: M.saveFailed,
      notWritten: "the posts could not be written. Nothing was changed; please try again.",
      shared: (count) => M.generated(sharePagesText(count)),
      shareFailed: M.generateFailed("the share pages could not be prepared. Please try again."),
    },
    unknownKeepsRows: true,
    intents: { notify },
  });
}
