import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { FieldError } from "~/components/ui/form-parts";
import {
  BLANK_ROW,
  EDITOR_PATH,
  fieldName,
  isBlankRow,
  type EditorField,
  type EditorReply,
  type EditorRow,
  type FieldIssue,
  type RowTextField,
} from "./merch-admin-screen";

type Props = {
  /** The saved catalogue, or what was typed when the last post did not save it. */
  rows: EditorRow[];
  reply?: EditorReply;
};

/**
 * The whole catalogue as one plain form: a fieldset per item and one empty fieldset for a new
 * item. 'Save Changes' and 'Generate Share Files' are its two submit buttons (intent).
 */
export function MerchItemEditor({ rows: given, reply }: Props) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formAction === EDITOR_PATH ? navigation.formData?.get("intent") : null;
  const rows = given.length > 0 && isBlankRow(given[given.length - 1]!) ? given : [...given, BLANK_ROW];
  const issues = reply?.issues ?? [];
  const firstIssue = issues.find((i) => i.row >= 0);
  const formRef = useRef<HTMLFormElement>(null);

  // With JavaScript, a refused save takes staff to the first field it names.
  useEffect(() => {
    if (reply?.tone === "error" && reply.issues?.length) {
      const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      field?.focus({ preventScroll: true });
      field?.scrollIntoView({ block: "center" });
    }
  }, [reply]);

  return (
    <Form method="post" action={EDITOR_PATH} className="merch-editor" ref={formRef} aria-label="Merchandise items">
      <details className="editor-help">
        <summary>How the fields are read</summary>
        <ul>
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
        </ul>
      </details>
      <ol className="merch-items">
        {rows.map((row, i) => (
          <li key={i}>
            <ItemFieldset row={row} index={i} isLast={i === rows.length - 1} issues={issues.filter((x) => x.row === i)} />
          </li>
        ))}
      </ol>
      <div className="editor-bar">
        <p role="status" aria-live="polite" className={reply ? `admin-message admin-message-${reply.tone}` : "admin-message"}>
          {reply?.message}
          {firstIssue ? (
            <>
              {" "}
              <a href={`#item-${firstIssue.row}-${firstIssue.field ?? "id"}`}>Show the field</a>
            </>
          ) : null}
        </p>
        <div className="editor-bar-buttons">
          <button type="submit" name="intent" value="save" disabled={!!pending}>
            {pending === "save" ? "Saving…" : "Save Changes"}
          </button>
          <button type="submit" name="intent" value="share" className="button-ghost" disabled={!!pending}>
            {pending === "share" ? "Generating…" : "Generate Share Files"}
          </button>
        </div>
      </div>
    </Form>
  );
}

const PRICE_PATTERN = "\\s*[0-9]+(\\.[0-9]+)?\\s*";
/** Only site paths and https images are previewed, as the save schema allows. */
const previewable = (src: string) => /^\/(?!\/)[A-Za-z0-9._~\/-]+$/.test(src) || /^https:\/\/[^\s"'<>]+$/.test(src);

type FieldSpec = {
  field: RowTextField;
  label: string;
  kind?: "textarea" | "number";
  hint?: string;
  placeholder?: string;
  wide?: boolean;
  maxLength: number;
};

const FIELDS: FieldSpec[] = [
  { field: "id", label: "Id (SKU)", placeholder: "SL-CAP", maxLength: 40 },
  { field: "name", label: "Name", maxLength: 80 },
  { field: "slug", label: "Slug", placeholder: "lamp-cap", maxLength: 60 },
  { field: "price", label: "Price", kind: "number", placeholder: "3500", maxLength: 12 },
  { field: "currency", label: "Currency", placeholder: "KES", maxLength: 3 },
  { field: "image", label: "Image", placeholder: "/images/merch/…", maxLength: 500 },
  { field: "description", label: "Description", kind: "textarea", maxLength: 1000 },
  { field: "impact", label: "Impact", kind: "textarea", maxLength: 300 },
  { field: "tags", label: "Tags", placeholder: "apparel, gift", maxLength: 400 },
  { field: "sizes", label: "Sizes", placeholder: "S, M, L", maxLength: 300 },
  { field: "colors", label: "Colours", kind: "textarea", placeholder: "Night Blue|#123b5d|/images/merch/hoodie.webp", hint: "One per line: label|#hex|image", wide: true, maxLength: 2000 },
];

function ItemFieldset({ row, index, isLast, issues }: { row: EditorRow; index: number; isLast: boolean; issues: FieldIssue[] }) {
  const id = (f: EditorField | "remove") => `item-${index}-${f}`;
  const issueFor = (f: EditorField) => issues.find((x) => x.field === f)?.message;
  const general = issues.filter((x) => x.field === null);
  const title = row.name.trim() || row.id.trim();
  const isNew = isLast && isBlankRow(row);
  const legend = isNew ? "Add a new item" : title ? `${title}${row.id && row.id !== title ? ` (${row.id})` : ""}` : `Item ${index + 1}`;
  const className = ["merch-item", isNew ? "merch-item-new" : "", issues.length ? "has-error" : ""].filter(Boolean).join(" ");

  return (
    <fieldset className={className}>
      <legend>
        {previewable(row.image.trim()) ? (
          <img className="merch-item-thumb" src={row.image.trim()} alt="" width={40} height={40} loading="lazy" decoding="async" />
        ) : null}
        <span>{legend}</span>
      </legend>
      {general.map((g) => (
        <p key={g.message} className="field-error">
          {g.message}
        </p>
      ))}
      <div className="merch-item-grid">
        {FIELDS.map((spec) => {
          const error = issueFor(spec.field);
          const errorId = `${id(spec.field)}-error`;
          const hintId = spec.hint ? `${id(spec.field)}-hint` : undefined;
          const common = {
            id: id(spec.field),
            name: fieldName(index, spec.field),
            defaultValue: row[spec.field],
            // Examples only in the empty row: in a saved item they would read as its data.
            placeholder: isNew ? spec.placeholder : undefined,
            maxLength: spec.maxLength,
            "aria-invalid": error ? true : undefined,
            "aria-describedby": [error ? errorId : null, hintId].filter(Boolean).join(" ") || undefined,
          };
          return (
            <div key={spec.field} className={`field field-${spec.field}${spec.wide ? " field-wide" : ""}`}>
              <label htmlFor={common.id}>{spec.label}</label>
              {spec.kind === "textarea" ? (
                <textarea {...common} rows={3} spellCheck={spec.field !== "colors"} />
              ) : (
                <input
                  {...common}
                  type="text"
                  inputMode={spec.kind === "number" ? "decimal" : undefined}
                  // The browser stops '3,500' (which would read as 3) before it is sent.
                  pattern={spec.kind === "number" ? PRICE_PATTERN : undefined}
                  title={spec.kind === "number" ? "Digits only, such as 3500 (no commas or currency)." : undefined}
                  autoComplete="off"
                  spellCheck={spec.field === "name" ? undefined : false}
                  autoCapitalize={spec.field === "currency" ? "characters" : "off"}
                />
              )}
              {spec.hint ? (
                <p className="field-hint" id={hintId}>
                  {spec.hint}
                </p>
              ) : null}
              <FieldError id={errorId} message={error} />
            </div>
          );
        })}
      </div>
      <div className="merch-item-checks">
        {/* Unticked boxes send nothing: the hidden 'false' comes first, a ticked box's 'true' wins. */}
        <input type="hidden" name={fieldName(index, "available")} value="false" />
        <label className="check">
          <input type="checkbox" id={id("available")} name={fieldName(index, "available")} value="true" defaultChecked={row.available} />
          Available (untick to show “Restocking”)
        </label>
        {isNew ? null : (
          <label className="check check-remove">
            <input type="checkbox" id={id("remove")} name={fieldName(index, "remove")} value="on" defaultChecked={row.remove} />
            Remove
          </label>
        )}
      </div>
    </fieldset>
  );
}
