import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { FieldError } from "~/components/ui/form-parts";
import { isImageAddress } from "~/lib/core/rules";
import { withNewRow, type RowIssue } from "../list-editor";

type Attrs = Record<string, string | number | boolean | undefined>;

/** One text field of an entry's fieldset. */
export type FieldSpec<F extends string> = {
  field: F;
  label: string;
  maxLength: number;
  textarea?: { rows?: number };
  placeholder?: string;
  hint?: string;
  /** Takes the whole width of the fieldset's grid. */
  wide?: boolean;
  /**
   * Attributes over the defaults: a text input has no autocomplete, capitals or spell check;
   * a textarea has three rows and spell check.
   */
  attrs?: Attrs;
};

type Button = { intent: string; label: string; busyLabel: string; ghost?: boolean };

/**
 * A whole list as one plain form: the help, a fieldset per entry (drawn by `renderRow`, usually
 * with RowFieldset) plus an empty one for a new entry, and a sticky bar with the status and the
 * submit buttons (one per intent). With JavaScript, a refused save takes staff to the first
 * field it names.
 */
export function ListEditor<R>({
  action,
  className,
  label,
  help,
  listClassName,
  rows: given,
  blankRow,
  isBlankRow,
  issues = [],
  reply,
  status,
  buttons,
  renderRow,
}: {
  action: string;
  className: string;
  label: string;
  /** The items of 'How the fields are read'. */
  help: React.ReactNode;
  listClassName: string;
  rows: R[];
  blankRow: R;
  isBlankRow(row: R): boolean;
  /** The last save's problems, on their fieldsets. */
  issues?: RowIssue<string>[];
  reply?: { status: "success" | "error"; message?: string };
  /** Shown after the reply's message in the bar. */
  status?: React.ReactNode;
  buttons: Button[];
  renderRow(row: R, index: number, isNew: boolean, issues: RowIssue<string>[]): React.ReactNode;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formAction === action ? navigation.formData?.get("intent") : null;
  const rows = withNewRow(given, isBlankRow, blankRow);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (reply?.status === "error" && issues.length) {
      const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      field?.focus({ preventScroll: true });
      field?.scrollIntoView({ block: "center" });
    }
  }, [reply]);

  return (
    <Form method="post" action={action} className={className} ref={formRef} aria-label={label}>
      <details className="editor-help">
        <summary>How the fields are read</summary>
        <ul>{help}</ul>
      </details>
      <ol className={listClassName}>
        {rows.map((row, i) => (
          <li key={i}>{renderRow(row, i, i === rows.length - 1 && isBlankRow(row), issues.filter((x) => x.row === i))}</li>
        ))}
      </ol>
      <div className="editor-bar">
        <p role="status" aria-live="polite" className={reply ? `admin-message admin-message-${reply.status}` : "admin-message"}>
          {reply?.message}
          {status}
        </p>
        <div className="editor-bar-buttons">
          {buttons.map((b) => (
            <button key={b.intent} type="submit" name="intent" value={b.intent} className={b.ghost ? "button-ghost" : undefined} disabled={!!pending}>
              {pending === b.intent ? b.busyLabel : b.label}
            </button>
          ))}
        </div>
      </div>
    </Form>
  );
}

/**
 * One entry's fieldset: the legend (with a thumbnail of its image when the image is one the
 * save allows), problems about the entry as a whole, a grid of its text fields, and a foot with
 * the 'Remove' box (not on the new entry) between the screen's own controls.
 */
export function RowFieldset<F extends string>({
  kind,
  idPrefix,
  index,
  isNew,
  legend,
  image,
  thumb,
  issues,
  fields,
  values,
  nameOf,
  examples = "always",
  footClassName,
  footStart,
  footEnd,
  removed,
}: {
  /** The class of the fieldset; its parts take `-new`, `-thumb` and `-grid` after it. */
  kind: string;
  /** Field ids are `<idPrefix>-<row>-<field>`. */
  idPrefix: string;
  index: number;
  isNew: boolean;
  legend: string;
  image: string;
  thumb: { width: number; height: number };
  issues: RowIssue<string>[];
  fields: FieldSpec<F>[];
  values: Record<F, string>;
  nameOf(field: F | "remove"): string;
  /** Placeholders on every entry, or only on the new one (where they cannot be read as data). */
  examples?: "always" | "new-row";
  footClassName: string;
  footStart?: React.ReactNode;
  footEnd?: React.ReactNode;
  removed: boolean;
}) {
  const id = (f: string) => `${idPrefix}-${index}-${f}`;
  const issueFor = (f: F) => issues.find((x) => x.field === f)?.message;
  const general = issues.filter((x) => x.field === null);
  const className = [kind, isNew ? `${kind}-new` : "", issues.length ? "has-error" : ""].filter(Boolean).join(" ");
  const src = image.trim();

  return (
    <fieldset className={className}>
      <legend>
        {isImageAddress(src) ? (
          <img className={`${kind}-thumb`} src={src} alt="" width={thumb.width} height={thumb.height} loading="lazy" decoding="async" />
        ) : null}
        <span>{legend}</span>
      </legend>
      {general.map((g) => (
        <p key={g.message} className="field-error">
          {g.message}
        </p>
      ))}
      <div className={`${kind}-grid`}>
        {fields.map((spec) => {
          const error = issueFor(spec.field);
          const errorId = `${id(spec.field)}-error`;
          const hintId = spec.hint ? `${id(spec.field)}-hint` : undefined;
          const common = {
            id: id(spec.field),
            name: nameOf(spec.field),
            defaultValue: values[spec.field],
            placeholder: examples === "always" || isNew ? spec.placeholder : undefined,
            maxLength: spec.maxLength,
            "aria-invalid": error ? true : undefined,
            "aria-describedby": [error ? errorId : null, hintId].filter(Boolean).join(" ") || undefined,
          };
          return (
            <div key={spec.field} className={`field field-${spec.field}${spec.wide ? " field-wide" : ""}`}>
              <label htmlFor={common.id}>{spec.label}</label>
              {spec.textarea ? (
                <textarea {...common} rows={spec.textarea.rows ?? 3} spellCheck {...spec.attrs} />
              ) : (
                <input {...common} type="text" autoComplete="off" autoCapitalize="off" spellCheck={false} {...spec.attrs} />
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
      <div className={footClassName}>
        {footStart}
        {isNew ? null : (
          <label className="check check-remove">
            <input type="checkbox" id={id("remove")} name={nameOf("remove")} value="on" defaultChecked={removed} />
            Remove
          </label>
        )}
        {footEnd}
      </div>
    </fieldset>
  );
}
