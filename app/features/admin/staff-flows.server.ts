import { data, type AppLoadContext } from "react-router";
import { issuesOnRows, rowsToSave, type ListIssue, type RowIssue } from "./list-editor";
import type { Actor } from "~/lib/actor";
import type { Db } from "~/lib/db.server";
import type { Reply } from "~/lib/forms";
import { formOf } from "~/lib/submission.server";
import { staffAction, staffIntent, type StaffContext, type StaffIntent } from "./staff-action.server";

/**
 * What the order screens' row actions answer (the badge orders and merch orders screens), and
 * a list editor's save and share (the blog and merch editors), built on `staffAction`.
 */

/** What a row action's reply carries: the order as it now stands (it replaces its row). */
export type OrderRowResult<O, C extends string> = { id: string | null; order: O | null; confirm?: C };

/** What a list editor's reply carries: what was typed whenever it was not saved, and the problems on their rows. */
export type ListEditorResult<Row, F extends string> = { rows?: Row[]; issues?: RowIssue<F>[] };

export type ListCheck<Item, F extends string> = { ok: true; items: Item[] } | { ok: false; message: string; issues: ListIssue<F>[] };

type ListEditorOptions<Row extends { remove: boolean }, Item, F extends string, R extends ListEditorResult<Row, F>> = {
  name: string;
  path: string;
  maxBytes: number;
  /** The fieldsets as posted, in form order (each comes back in place, blank ones too). */
  readRows: (form: FormData) => Row[];
  isBlankRow: (row: Row) => boolean;
  /** A save with no fieldsets at all is refused with this reason. */
  emptyReason?: string;
  /** The rows to keep (not removed, not blank), checked as a whole. */
  check: (rows: Row[]) => ListCheck<Item, F>;
  save: (db: Db, items: Item[], actor: Actor) => Promise<unknown>;
  share: (db: Db, actor: Actor) => Promise<{ count: number }>;
  words: {
    saved: string;
    saveFailed: (reason: string) => string;
    /** Why a save that passed its check was not written. */
    notWritten: string;
    shared: (count: number) => string;
    shareFailed: string;
  };
  /** An unknown intent's reply keeps what was typed. */
  unknownKeepsRows: boolean;
  /** The screen's other forms. */
  intents?: Record<string, StaffIntent<R, any>>;
};

/**
 * A whole list as one form: intent save (check every row, then write the list) or share
 * (build the share pages from the saved list; unsaved edits stay on screen).
 */
export function listEditorAction<Row extends { remove: boolean }, Item, F extends string, R extends ListEditorResult<Row, F>>(
  request: Request,
  context: AppLoadContext,
  o: ListEditorOptions<Row, Item, F, R>,
) {
  const typed = (ctx: StaffContext) => o.readRows(formOf(ctx.submission));
  const shown = (ctx: StaffContext) => {
    const rows = typed(ctx);
    return rows.length > 0 ? rows : undefined;
  };
  const answer = (reply: Reply<ListEditorResult<Row, F>>, status: number) => data(reply as Reply<R>, status);
  return staffAction<R>(request, context, {
    name: o.name,
    session: { returnTo: o.path },
    maxBytes: o.maxBytes,
    intents: {
      ...o.intents,
      save: staffIntent<R>({
        run: async (_, ctx) => {
          const rows = typed(ctx);
          if (o.emptyReason !== undefined && rows.length === 0) {
            return answer({ intent: "save", status: "error", message: o.words.saveFailed(o.emptyReason) }, 400);
          }
          const kept = rowsToSave(rows, o.isBlankRow);
          const check = o.check(kept.map(({ row }) => row));
          if (!check.ok) {
            const issues = issuesOnRows(check.issues, kept);
            return answer({ intent: "save", status: "error", message: o.words.saveFailed(check.message), result: { rows, issues } }, 400);
          }
          await o.save(ctx.db, check.items, ctx.actor);
          return answer({ intent: "save", status: "success", message: o.words.saved }, 200);
        },
        // Nothing a save refuses after its check is for staff to fix: it was not written.
        refused: () => null,
        failed: (_e, ctx) => ({ intent: "save", status: "error", message: o.words.saveFailed(o.words.notWritten), result: { rows: typed(ctx) } }) as Reply<R>,
      }),
      share: staffIntent<R>({
        run: async (_, ctx) => {
          const { count } = await o.share(ctx.db, ctx.actor);
          return answer({ intent: "share", status: "success", message: o.words.shared(count), result: { rows: shown(ctx) } }, 200);
        },
        refused: () => null,
        failed: (_e, ctx) => ({ intent: "share", status: "error", message: o.words.shareFailed, result: { rows: shown(ctx) } }) as Reply<R>,
      }),
    },
    unreadable: (message) => ({ intent: "save", status: "error", message: o.words.saveFailed(message) }),
    unknown: (ctx) =>
      ({ intent: "save", status: "error", message: "Unknown action.", ...(o.unknownKeepsRows ? { result: { rows: shown(ctx) } } : {}) }) as Reply<R>,
  });
}
