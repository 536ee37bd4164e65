import { useSyncExternalStore } from "react";
import { HONEYPOT_FIELD } from "~/lib/core/forms";

const subscribe = () => () => {};
/** False while rendering on the server and during hydration, true after. */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/** A field people never see; bots fill it in and their submission is dropped. */
export function Honeypot() {
  return (
    <div className="hp" aria-hidden="true">
      <label>
        Leave this field empty
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id}>
      {message}
    </p>
  );
}

export function FormStatus({
  tone,
  children,
  id,
}: {
  tone: "success" | "error" | null;
  children?: React.ReactNode;
  id?: string;
}) {
  return (
    <div id={id} className={tone ? `form-status form-status-${tone}` : "form-status"} role="status" aria-live="polite">
      {tone ? children : null}
    </div>
  );
}
