import { data, type AppLoadContext } from "react-router";
import { isTicked, issuesOnRows, readRowFields, rowsToSave } from "~/features/admin/list-editor";
import { requireStaff } from "~/features/admin/staff-auth.server";
import type { Reply } from "~/lib/core/forms";
import { httpErrorOf } from "~/lib/http/http.server";
import { intentOf, readForm, submissionOf } from "~/lib/forms/submission.server";
import { parseEditorItem, type EditorFields } from "~/features/merch/merch-editor";
import { listItems } from "~/features/merch/merch.server";
import {
  EDITOR_PATH,
  FIELD_NAME,
  isBlankRow,
  itemToRow,
  MERCH_ADMIN_MESSAGES as M,
  ROW_TEXT_FIELDS,
  type EditorResult,
  type EditorRow,
} from "~/features/merch/admin/merch-admin-screen";
import { checkCatalogue, generateMerchShares, saveMerchCatalogue, version } from "~/features/merch/admin/merch-admin.server";

export async function loadMerchEditorScreen(context: AppLoadContext) {
  const items = await listItems(context.db);
  return { rows: items.map(itemToRow), version: version(items) };
}

type TypedRow = { fields: EditorFields; remove: boolean };

/** The fieldsets as posted, in form order; the last `available` value wins (hidden 'false', then the box). */
export function readEditorRows(form: FormData): TypedRow[] {
  return readRowFields(form, FIELD_NAME).map((f) => {
    const text = Object.fromEntries(ROW_TEXT_FIELDS.map((k) => [k, f.get(k) ?? ""])) as Record<(typeof ROW_TEXT_FIELDS)[number], string>;
    return { fields: { ...text, available: f.get("available") }, remove: isTicked(f, "remove") };
  });
}

/** A typed row as the editor shows it again: text kept as typed, the checkbox as it will be read. */
const echo = (r: TypedRow): EditorRow => {
  const text = Object.fromEntries(ROW_TEXT_FIELDS.map((k) => [k, r.fields[k]])) as Record<(typeof ROW_TEXT_FIELDS)[number], string>;
  return { ...text, available: parseEditorItem(r.fields).available, remove: r.remove };
};

const reply = (body: Reply<EditorResult>, status: number) => data(body, status);
const saveFailed = (reason: string) => `${M.saveFailed}: ${reason}`;

/**
 * The editor's one form: intent save (Save Changes: every row checked, then the whole list
 * written) or share (Generate Share Files from the saved list; unsaved edits stay on screen).
 */
export async function merchEditorAction(request: Request, context: AppLoadContext) {
  const actor = await requireStaff(request, context, EDITOR_PATH);
  let form: FormData;
  try {
    form = await readForm(request, 512 * 1024);
  } catch (e) {
    const refused = httpErrorOf(e);
    if (!refused) throw e;
    return reply({ intent: "save", status: "error", message: saveFailed(refused.message) }, refused.status);
  }
  // Every fieldset comes back in place (blank ones too), so issues and inputs keep their rows.
  const rows = readEditorRows(form).map(echo);
  const intent = intentOf(submissionOf(form));
  switch (intent) {
    case "save": {
      const kept = rowsToSave(rows, isBlankRow);
      const check = checkCatalogue(kept.map(({ row }) => parseEditorItem(row)));
      if (!check.ok) {
        return reply({ intent, status: "error", message: saveFailed(check.message), result: { rows, issues: issuesOnRows(check.issues, kept) } }, 400);
      }
      try {
        await saveMerchCatalogue(context.db, check.items, actor);
      } catch (e) {
        // Nothing a save refuses after its check is for staff to fix: it was not written.
        console.error("[merch-editor] save failed", e);
        return reply({ intent, status: "error", message: saveFailed("the catalogue could not be written. Nothing was changed; please try again."), result: { rows } }, 500);
      }
      return reply({ intent, status: "success", message: M.saved }, 200);
    }
    case "share": {
      const shown = rows.length > 0 ? rows : undefined;
      try {
        const { count } = await generateMerchShares(context.db, actor);
        return reply({ intent, status: "success", message: M.shareDone(count), result: { rows: shown } }, 200);
      } catch (e) {
        console.error("[merch-editor] share failed", e);
        return reply({ intent, status: "error", message: M.shareFailed, result: { rows: shown } }, 500);
      }
    }
    default:
      return reply({ intent: "save", status: "error", message: "Unknown action." }, 400);
  }
}
