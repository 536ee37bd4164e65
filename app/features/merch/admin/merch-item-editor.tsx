import { ListEditor, RowFieldset, type FieldSpec } from "~/features/admin/components/list-editor";
import type { Reply } from "~/lib/core/forms";
import {
  BLANK_ROW,
  EDITOR_PATH,
  fieldName,
  isBlankRow,
  type EditorResult,
  type EditorRow,
  type RowTextField,
} from "./merch-admin-screen";

type Props = {
  /** The saved catalogue, or what was typed when the last post did not save it. */
  rows: EditorRow[];
  reply?: Reply<EditorResult>;
};

/**
 * The whole catalogue as one plain form: a fieldset per item and one empty fieldset for a new
 * item. 'Save Changes' and 'Generate Share Files' are its two submit buttons (intent).
 */
export function MerchItemEditor({ rows, reply }: Props) {
  const issues = reply?.result?.issues ?? [];
  const firstIssue = issues.find((i) => i.row >= 0);
  return (
    <ListEditor
      action={EDITOR_PATH}
      className="merch-editor"
      label="Merchandise items"
      listClassName="merch-items"
      rows={rows}
      blankRow={BLANK_ROW}
      isBlankRow={isBlankRow}
      issues={issues}
      reply={reply}
      status={
        firstIssue ? (
          <>
            {" "}
            <a href={`#item-${firstIssue.row}-${firstIssue.field ?? "id"}`}>Show the field</a>
          </>
        ) : null
      }
      buttons={[
        { intent: "save", label: "Save Changes", busyLabel: "Saving…" },
        { intent: "share", label: "Generate Share Files", busyLabel: "Generating…", ghost: true },
      ]}
      help={
        <>
          <li>Price is in whole units of the currency (KES has no cents in use); anything that is not a number saves as 0.</li>
          <li>
            The slug is the item's address (<code>/merchandise?item=street-light-hoodie</code>): lower-case words joined by
            dashes. A blank slug uses the id, so fill it in when the id has capitals. A blank currency is KES.
          </li>
          <li>Tags and sizes are comma lists, e.g. <code>S, M, L, XL</code>.</li>
          <li>
            Colours: one per line (or separated by <code>;</code>), as <code>label|#hex|image</code>; the image is
            optional, e.g. <code>Night Blue|#123b5d|/images/merch/hoodie.webp</code>.
          </li>
          <li>Tick “Remove” to delete an item when you save. Fill in the last, empty box to add an item.</li>
        </>
      }
      renderRow={(row, i, isNew, rowIssues) => {
        const title = row.name.trim() || row.id.trim();
        return (
          <RowFieldset
            kind="merch-item"
            idPrefix="item"
            index={i}
            isNew={isNew}
            legend={isNew ? "Add a new item" : title ? `${title}${row.id && row.id !== title ? ` (${row.id})` : ""}` : `Item ${i + 1}`}
            image={row.image}
            thumb={{ width: 40, height: 40 }}
            issues={rowIssues}
            fields={FIELDS}
            values={row}
            nameOf={(f) => fieldName(i, f)}
            // Examples only in the empty row: in a saved item they would read as its data.
            examples="new-row"
            footClassName="merch-item-checks"
            removed={row.remove}
            footStart={
              <>
                {/* Unticked boxes send nothing: the hidden 'false' comes first, a ticked box's 'true' wins. */}
                <input type="hidden" name={fieldName(i, "available")} value="false" />
                <label className="check">
                  <input type="checkbox" id={`item-${i}-available`} name={fieldName(i, "available")} value="true" defaultChecked={row.available} />
                  Available (untick to show “Restocking”)
                </label>
              </>
            }
          />
        );
      }}
    />
  );
}

const FIELDS: FieldSpec<RowTextField>[] = [
  { field: "id", label: "Id (SKU)", placeholder: "SL-CAP", maxLength: 40 },
  { field: "name", label: "Name", maxLength: 80, attrs: { spellCheck: undefined } },
  { field: "slug", label: "Slug", placeholder: "lamp-cap", maxLength: 60 },
  {
    field: "price",
    label: "Price",
    placeholder: "3500",
    maxLength: 12,
    // The browser stops '3,500' (which would read as 3) before it is sent.
    attrs: { inputMode: "decimal", pattern: "\\s*[0-9]+(\\.[0-9]+)?\\s*", title: "Digits only, such as 3500 (no commas or currency)." },
  },
  { field: "currency", label: "Currency", placeholder: "KES", maxLength: 3, attrs: { autoCapitalize: "characters" } },
  { field: "image", label: "Image", placeholder: "/images/merch/…", maxLength: 500 },
  { field: "description", label: "Description", textarea: {}, maxLength: 1000 },
  { field: "impact", label: "Impact", textarea: {}, maxLength: 300 },
  { field: "tags", label: "Tags", placeholder: "apparel, gift", maxLength: 400 },
  { field: "sizes", label: "Sizes", placeholder: "S, M, L", maxLength: 300 },
  {
    field: "colors",
    label: "Colours",
    textarea: {},
    attrs: { spellCheck: false },
    placeholder: "Night Blue|#123b5d|/images/merch/hoodie.webp",
    hint: "One per line: label|#hex|image",
    wide: true,
    maxLength: 2000,
  },
];
