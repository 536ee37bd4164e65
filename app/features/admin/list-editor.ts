import type { z } from "zod";

/**
 * The mechanics shared by the staff list editors (blog posts at /blogs/admin, the merch
 * catalogue at /merchandise/admin): the whole list is one plain form, a fieldset per entry
 * named `<list>[<row>].<field>`, plus an empty fieldset for a new entry; a refused save comes
 * back with what was typed and the problems placed on their fieldsets. Client-safe.
 */

/** A problem on one fieldset: `field` null is about the entry as a whole. */
export type RowIssue<F extends string> = { row: number; field: F | null; message: string };

/** A problem a list check found: `index` counts the entries it was given. */
export type ListIssue<F extends string> = { index: number; field: F | null; message: string };

/** The rows as shown: the given ones, then an empty one for a new entry unless the last is empty already. */
export function withNewRow<R>(rows: R[], isBlank: (row: R) => boolean, blank: R): R[] {
  const last = rows[rows.length - 1];
  return last !== undefined && isBlank(last) ? rows : [...rows, blank];
}

/**
 * The fieldsets as posted, in row order: each row's values by field name. `fieldName` matches a
 * form name and captures the row number and the field; a repeated name keeps its last value.
 */
export function readRowFields(form: FormData, fieldName: RegExp): Array<Map<string, string>> {
  const byRow = new Map<number, Map<string, string>>();
  for (const [key, value] of form) {
    const m = fieldName.exec(key);
    if (!m || typeof value !== "string") continue;
    const row = Number(m[1]);
    const fields = byRow.get(row) ?? new Map<string, string>();
    fields.set(m[2]!, value);
    byRow.set(row, fields);
  }
  return [...byRow.entries()].sort(([a], [b]) => a - b).map(([, fields]) => fields);
}

/** A checkbox as posted: ticked when sent with any value but "false". */
export const isTicked = (fields: Map<string, string>, name: string) => fields.has(name) && fields.get(name) !== "false";

/** The rows a save checks and keeps (not removed, not left empty), with their place on screen. */
export function rowsToSave<R extends { remove: boolean }>(rows: R[], isBlank: (row: R) => boolean) {
  return rows.map((row, index) => ({ row, index })).filter(({ row }) => !row.remove && !isBlank(row));
}

/** A list check's problems put back on the fieldsets the checked entries came from. */
export function issuesOnRows<F extends string>(issues: ListIssue<F>[], saved: Array<{ index: number }>): RowIssue<F>[] {
  return issues.map((i) => ({ row: saved[i.index]?.index ?? -1, field: i.field, message: i.message }));
}

/**
 * A list schema's issues, each on its entry and field. `fieldOf` says which keys are editor
 * fields (anything else is about the entry); `words` puts zod's own messages into staff's words.
 */
export function listIssues<F extends string>(
  issues: z.core.$ZodIssue[],
  fieldOf: (key: string) => F | null,
  words: (issue: z.core.$ZodIssue, field: F | null) => string,
): Array<ListIssue<F> & { code: string }> {
  return issues.map((issue) => {
    const [index, key] = issue.path;
    const field = typeof key === "string" ? fieldOf(key) : null;
    return { index: typeof index === "number" ? index : -1, field, message: words(issue, field), code: issue.code };
  });
}

/** Zod's generic messages ('Too big: expected ...'), which staff should not see as they are. */
export const isZodWording = (message: string) => /^(Too big|Too small|Invalid)/.test(message);
