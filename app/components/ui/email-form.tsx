import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { firstError, type Reply } from "~/lib/core/forms";
import { trackEvent } from "~/lib/browser/track";
import { FieldError, FormStatus, Honeypot } from "./form-parts";

export type EmailFormText = { success: string; failure: string; pending: string };

type Props = {
  action: string;
  hidden?: Record<string, string>;
  label: string;
  buttonLabel: string;
  text: EmailFormText;
  /** A line under the form: what it keeps, why and for how long. */
  notice?: React.ReactNode;
  /** The page's own action reply, when the form was posted without JavaScript. */
  serverReply?: Reply<unknown>;
  className?: string;
  buttonClassName?: string;
  /** Event name prefix for tracking: `<name>.submit`, `.success`, `.error`. */
  trackAs?: string;
  /**
   * The form's id. A page that posts to itself names one, so that without JavaScript the
   * reloaded page opens at the form and its result, not at the top.
   */
  anchor?: string;
};

/**
 * A one-field email form: a plain POST without JavaScript; with it, no reload, the button
 * disabled while sending (never for an empty field: the check says what is missing), the
 * pending label, and the field cleared on success.
 */
export function EmailForm({ action, hidden = {}, label, buttonLabel, text, serverReply, className, buttonClassName, trackAs, anchor, notice }: Props) {
  const fetcher = useFetcher<Reply<unknown>>();
  const id = useId();
  const reply = fetcher.data ?? serverReply;
  const busy = fetcher.state !== "idle";
  const [email, setEmail] = useState(reply?.status === "error" ? (reply.values?.email ?? "") : "");
  const seen = useRef<Reply<unknown> | undefined>(undefined);
  // What the reader typed before the scripts arrived is the field's value from here on.
  const field = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (field.current && field.current.value !== email) setEmail(field.current.value);
  }, []);
  useEffect(() => {
    if (fetcher.data && fetcher.data !== seen.current) {
      seen.current = fetcher.data;
      if (trackAs) trackEvent(`${trackAs}.${fetcher.data.status}`);
      if (fetcher.data.status === "success") setEmail("");
    }
  }, [fetcher.data, trackAs]);
  // Typing after a refused address drops the old message (it was about what was there before).
  const [editedAfter, setEditedAfter] = useState<unknown>(null);
  const emailError = editedAfter === reply ? undefined : firstError(reply, "email");
  const failed = reply?.status === "error" && !emailError;
  const tone = busy ? null : reply?.status === "success" ? "success" : failed ? "error" : null;
  return (
    <fetcher.Form
      method="post"
      action={anchor ? `${action}#${anchor}` : action}
      id={anchor}
      className={className}
      onSubmit={() => {
        if (trackAs) trackEvent(`${trackAs}.submit`);
      }}
    >
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <Honeypot />
      <label htmlFor={`${id}-email`}>{label}</label>
      <div className="inline-field">
        <input
          id={`${id}-email`}
          type="email"
          name="email"
          required
          autoComplete="email"
          inputMode="email"
          maxLength={254}
          placeholder="you@example.com"
          ref={field}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setEditedAfter(reply);
          }}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={`${id}-status`}
        />
        <button type="submit" className={buttonClassName} disabled={busy}>
          {busy ? text.pending : buttonLabel}
        </button>
      </div>
      <FieldError id={`${id}-email-error`} message={emailError} />
      <FormStatus id={`${id}-status`} tone={tone}>
        {reply?.status === "success" ? text.success : text.failure}
        {failed && reply?.message ? <span className="status-detail"> {reply.message}</span> : null}
      </FormStatus>
      {notice}
    </fetcher.Form>
  );
}
