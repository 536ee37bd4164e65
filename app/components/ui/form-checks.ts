import { useEffect, useRef, useState } from "react";

/** The part of a form action's reply these helpers read (FormReply and its extensions). */
type CheckedReply = { status: "success" | "error"; values?: Record<string, string>; fieldErrors?: Record<string, string[]> };

/**
 * The message a field shows: none once it was edited since the last submit (when the form
 * clears stale errors), else the browser's own check, else (unless a new reply is on its way)
 * the server's.
 */
export function fieldError(
  field: string,
  s: { edited: ReadonlySet<string>; clientErrors: Record<string, string>; busy: boolean; reply?: CheckedReply },
): string | undefined {
  if (s.edited.has(field)) return undefined;
  if (Object.keys(s.clientErrors).length > 0) return s.clientErrors[field];
  return s.busy ? undefined : s.reply?.fieldErrors?.[field]?.[0];
}

/** The first of the form's fields (in its order) that has an error. */
export const firstWithError = (fields: readonly string[], errors: Record<string, unknown> | undefined) =>
  fields.find((f) => errors?.[f]);

/** The reply's messages about anything that is not one of the form's fields (for its banner). */
export const otherErrors = (fields: readonly string[], reply: CheckedReply | undefined) =>
  Object.entries(reply?.fieldErrors ?? {})
    .filter(([k]) => !fields.includes(k))
    .map(([, v]) => v[0]);

/**
 * The error state of an enhanced form whose fields the browser checks before sending, with the
 * same rules and words as the server (see app/lib/core/rules.ts): which message each field shows,
 * the values typed before a refused plain POST, and the cursor put in the first field to fix.
 * A field changed since the last submit shows no (stale) error: wire `onInput` to the form.
 */
export function useFormChecks({
  fields,
  reply,
  busy,
  idPrefix,
}: {
  fields: readonly string[];
  reply?: CheckedReply;
  busy: boolean;
  idPrefix: string;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const values = reply?.status === "error" ? (reply.values ?? {}) : {};
  const errorOf = (field: string) => fieldError(field, { edited, clientErrors, busy, reply });
  const focus = (name: string) => formRef.current?.querySelector<HTMLElement>(`[name="${name}"]`)?.focus();
  const markEdited = (name: string) => {
    if (name && !edited.has(name)) setEdited(new Set(edited).add(name));
  };

  return {
    formRef,
    values,
    errorOf,
    hasClientErrors: Object.keys(clientErrors).length > 0,
    markEdited,
    /** Shows the browser's check and puts the cursor in the first field named: true when there is nothing to fix. */
    showErrors(errors: Record<string, string>, { focusFirst = true } = {}): boolean {
      setClientErrors(errors);
      setEdited(new Set());
      const first = firstWithError(fields, errors);
      if (first && focusFirst) focus(first);
      return first === undefined;
    },
    /** After a reply with field errors, the cursor goes to the first field to fix. */
    focusFirstError(fieldErrors: Record<string, unknown> | undefined) {
      const first = firstWithError(fields, fieldErrors);
      if (first) focus(first);
    },
    /** The form's onInput: a field the visitor changes drops its old message (and aria-invalid). */
    onInput: (e: React.FormEvent<HTMLFormElement>) => markEdited((e.target as HTMLInputElement).name),
    /** A text field's props: id, name, what was typed, and its error wiring. */
    field(name: string) {
      const error = errorOf(name);
      return {
        id: `${idPrefix}-${name}`,
        name,
        defaultValue: values[name] ?? "",
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error ? `${idPrefix}-${name}-error` : undefined,
      } as const;
    },
  };
}

/** Runs `handle` once per fetcher reply, after the page has reloaded its data (the fetcher is idle again). */
export function useSettledReply<T>(fetcher: { state: string; data?: T }, handle: (data: T) => void) {
  const handled = useRef<T | undefined>(undefined);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === handled.current) return;
    handled.current = fetcher.data;
    handle(fetcher.data);
  }, [fetcher.state, fetcher.data]);
}
