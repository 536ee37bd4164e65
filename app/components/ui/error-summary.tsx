import { useEffect, useRef } from "react";
import type { Reply } from "~/lib/core/forms";

export const CHECK_FIELDS = "Please check the fields marked below.";

type Props = {
  reply: Pick<Reply, "status" | "fieldErrors"> | undefined;
  /** The form's fields in page order, with the words their labels use. */
  labels: Record<string, string>;
  /** Inputs are `${idPrefix}-${field}`. */
  idPrefix: string;
};

/**
 * The top of a form that came back with field errors: one line saying so, and a link to each
 * field to fix. A page that reloads (JavaScript off) opens at its top, so this is what a phone
 * shows first; each link jumps to its field. With JavaScript the page does not reload, so a new
 * refusal moves focus here, which scrolls the summary onto the screen.
 */
export function ErrorSummary({ reply, labels, idPrefix }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const bad =
    reply?.status === "error" && reply.fieldErrors ? Object.keys(labels).filter((f) => reply.fieldErrors?.[f]?.[0]) : [];
  const shown = bad.length > 0;
  useEffect(() => {
    if (shown) box.current?.focus();
  }, [reply, shown]);
  if (!shown) return null;
  return (
    <div ref={box} tabIndex={-1} className="error-summary" role="alert" aria-labelledby={`${idPrefix}-error-summary`}>
      <p id={`${idPrefix}-error-summary`} className="error-summary-title">
        {CHECK_FIELDS}
      </p>
      <ul>
        {bad.map((f) => (
          <li key={f}>
            <a href={`#${idPrefix}-${f}`}>
              {labels[f]}: {reply?.fieldErrors?.[f]?.[0]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
