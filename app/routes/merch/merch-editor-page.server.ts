import type { AppLoadContext } from "react-router";
import { isTicked, readRowFields } from "~/features/admin/list-editor";
import { listEditorAction } from "~/features/admin/staff-flows.server";
import { parseEditorItem, type EditorFields } from "~/features/merch/merch-editor";
import { listItems } from "~/features/merch/merch.server";
import type { MerchItem } from "~/features/merch/merch";
import {
  EDITOR_PATH,
  FIELD_NAME,
  isBlankRow,
  itemToRow,
  MERCH_ADMIN_MESSAGES as M,
  ROW_TEXT_FIELDS,
  type EditorField,
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

/** The editor's one form: intent save (Save Changes) or share (Generate Share Files). */
export function merchEditorAction(request: Request, context: AppLoadContext) {
  return listEditorAction<EditorRow, MerchItem, EditorField, EditorResult>(request, context, {
    name: "merch-editor",
    path: EDITOR_PATH,
    maxBytes: 512 * 1024,
    // Every fieldset comes back in place (blank ones too), so issues and inputs keep their rows.
    readRows: (form) => readEditorRows(form).map(echo),
    isBlankRow,
    check: (rows) => checkCatalogue(rows.map(parseEditorItem)),
    save: saveMerchCatalogue,
    share: generateMerchShares,
    words: {
      saved: M.saved,
      saveFailed: (reason) => `${M.saveFailed}: ${reason}`,
      notWritten: "the catalogue could not be written. Nothing was changed; please try again.",
      shared: M.shareDone,
      shareFailed: M.shareFailed,
    },
    unknownKeepsRows: false,
  });
}
