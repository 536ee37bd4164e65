import { useEffect, useRef } from "react";

type Props = {
  /** Ids inside the box start with this. */
  id: string;
  /** The question, as the server asked it. */
  question: React.ReactNode;
  /** The confirming submit button: its name, value and words (and `form`, when it sits outside it). */
  yes: { name: string; value: string; label: string; form?: string; className?: string };
  /** Where 'Cancel' goes without JavaScript (the same screen); with it, `onCancel` runs instead. */
  cancelHref: string;
  onCancel: () => void;
  busy: boolean;
  /** What else the second press sends (a note, a hidden 'confirmed'). */
  children?: React.ReactNode;
};

/**
 * The second press of an action the server asked to have confirmed (a rejection that emails the
 * supporter, notifying subscribers again). It works without JavaScript: the question came in the
 * server's answer, 'Yes' posts again, 'Cancel' is a link back. Shown, it scrolls into view with
 * 'Yes' focused, so it is read and answered where it appears.
 */
export function ConfirmBox({ id, question, yes, cancelHref, onCancel, busy, children }: Props) {
  const yesRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    yesRef.current?.scrollIntoView({ block: "nearest" });
    yesRef.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div className="confirm-box" role="group" aria-labelledby={`${id}-confirm`}>
      <p id={`${id}-confirm`}>
        <strong>{question}</strong>
      </p>
      {children}
      <span className="confirm-actions">
        <button type="submit" form={yes.form} name={yes.name} value={yes.value} ref={yesRef} className={yes.className ?? "button-small"} disabled={busy}>
          {yes.label}
        </button>
        <a
          href={cancelHref}
          className="button button-small button-ghost"
          onClick={(e) => {
            e.preventDefault();
            onCancel();
          }}
        >
          Cancel
        </a>
      </span>
    </div>
  );
}
