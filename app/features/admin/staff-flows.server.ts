import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { issuesOnRows, rowsToSave, type ListIssue, type RowIssue } from "./list-editor";
import type { Actor } from "~/lib/actor";
import type { Db } from "~/lib/db.server";
import type { Reply } from "~/lib/forms";
import { formOf } from "~/lib/submission.server";
import { staffAction, staffIntent, type StaffContext, type StaffIntent } from "./staff-action.server";

/**
 * The two shapes staff screens share, built on `staffAction`: a row action on an order (the
 * badge orders and merch orders screens), and a list editor's save and share (the blog and
 * merch editors). Each screen gives its words and its domain calls.
 */

/** What a row action's reply carries: the order as it now stands (it replaces its row). */
export type OrderRowResult<O, C extends string> = { id: string | null; order: O | null; confirm?: C };

type OrderRowOptions<I extends { id: string }, O extends { status: string }, C extends string> = {
  /** For the log. */
  name: string;
  /** The screen's path: signed out, sign-in comes back to it (with the list's query). */
  path: string;
  maxBytes: number;
  intents: readonly string[];
  /** The row form's fields, the same for every intent. */
  schema: z.ZodType<I, any>;
  /** The id a refused input's reply names. */
  idOf: (fields: Record<string, unknown>) => string | null;
  /** Whether this intent and input reject the order: a rejection emails the buyer and can undo an approval, so it takes a second, confirming press. */
  rejects: (intent: string, input: I) => boolean;
  confirm: C;
  question: (current: O) => string;
  /** Another change that takes a second press (un-approving, say): its mark and question for this order as it stands, or null. */
  asks?: (intent: string, input: I, current: O) => { confirm: C; question: string } | null;
  /** What was typed and comes back with the question (a reload would lose it). */
  keep?: (input: I) => Record<string, string>;
  load: (db: Db, id: string) => Promise<O | null>;
  run: (intent: string, input: I, ctx: StaffContext) => Promise<O>;
  /** Whether an error reply carries the order as it now stands (else none). */
  orderOnError: boolean;
  words: {
    /** A refusal's reason, or null for a failure nobody foresaw. */
    failed: (reason: string | null, intent: string) => string;
    done: (intent: string, input: I, order: O) => string;
  };
};

/**
 * A row's buttons: session, form, intent, the order id, confirm before a rejection, run, and
 * the answer with the order. A known refusal (a 4xx) keeps its words and status; anything else
 * is logged and answered with the screen's generic words and a 500, still as data, so the
 * screen stays usable rather than turning into an error page.
 */
export function orderRowAction<I extends { id: string }, O extends { status: string }, C extends string>(
  request: Request,
  context: AppLoadContext,
  o: OrderRowOptions<I, O, C>,
) {
  type R = OrderRowResult<O, C>;
  const none: R = { id: null, order: null };
  const orderNow = async (db: Db, id: string) => (o.orderOnError ? await o.load(db, id).catch(() => null) : null);
  const row = staffIntent<R, z.ZodType<I, any>>({
    schema: o.schema,
    invalid: ({ message }, ctx) =>
      data<Reply<R>>({ status: "error", message: o.words.failed(message ?? null, ctx.intent), result: { id: o.idOf(ctx.fields), order: null } }, 400),
    run: async (input, ctx) => {
      const rejects = o.rejects(ctx.intent, input);
      if ((rejects || o.asks) && ctx.fields.confirmed !== "yes") {
        const current = await o.load(ctx.db, input.id).catch(() => null);
        const ask = !current
          ? null
          : rejects
            ? current.status !== "rejected"
              ? { confirm: o.confirm, question: o.question(current) }
              : null
            : (o.asks?.(ctx.intent, input, current) ?? null);
        if (ask) {
          const values = o.keep ? { values: o.keep(input) } : {};
          return data<Reply<R>>({ status: "success", message: ask.question, ...values, result: { id: input.id, order: current, confirm: ask.confirm } }, 200);
        }
      }
      const order = await o.run(ctx.intent, input, ctx);
      return data<Reply<R>>({ status: "success", message: o.words.done(ctx.intent, input, order), result: { id: input.id, order } }, 200);
    },
    refused: async (e, ctx, input) =>
      e.status < 500 ? { status: "error", message: o.words.failed(e.message, ctx.intent), result: { id: input.id, order: await orderNow(ctx.db, input.id) } } : null,
    failed: async (_e, ctx, input) => ({
      status: "error",
      message: o.words.failed(null, ctx.intent),
      result: { id: input.id, order: await orderNow(ctx.db, input.id) },
    }),
  });
  return staffAction<R>(request, context, {
    name: o.name,
    session: { returnTo: `${o.path}${new URL(request.url).search}` },
    maxBytes: o.maxBytes,
    intents: Object.fromEntries(o.intents.map((intent) => [intent, row])),
    unreadable: (message) => ({ status: "error", message: o.words.failed(message, ""), result: none }),
    unknown: () => ({ status: "error", message: o.words.failed("Unknown action.", ""), result: none }),
  });
}

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
