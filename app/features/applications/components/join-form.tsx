import { useId, useState } from "react";
import { Form, useNavigation } from "react-router";
import { ErrorSummary } from "~/components/ui/error-summary";
import { FieldError, FormStatus, Honeypot } from "~/components/ui/form-parts";
import { firstError, type Reply } from "~/lib/core/forms";
import { EMAIL_MAX_LENGTH, PHONE_MAX_LENGTH } from "~/lib/core/rules";
import { JOIN_ROLES } from "../roles";
import {
  APPLICATION_MESSAGE_MAX_LENGTH,
  APPLICATION_NAME_MAX_LENGTH,
  applicationMailto,
  applicationMessages,
} from "../messages";
import { JOIN_CONSENT_LABEL } from "~/lib/core/data-notices";
import { DataNotice } from "~/components/ui/data-notice";

/** The fields in page order, as their labels say them (for the error summary). */
const LABELS = { name: "Full name", email: "Email", phone: "Phone", role: "Preferred role", message: "Message", consent: "Consent" };

function failureDetail(reply: Reply) {
  if (reply.retryAfter) {
    const minutes = Math.ceil(reply.retryAfter / 60);
    return `too many attempts, try again in ${minutes} minute${minutes === 1 ? "" : "s"}`;
  }
  return reply.message ?? "unknown error";
}

/** The application form: a plain POST that goes on to /join/thanks, with or without JavaScript. */
export function JoinForm({ reply }: { reply?: Reply }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith("/join");
  const id = useId();
  const v = reply?.values ?? {};
  // A field the visitor changes after a refusal drops its old message (and aria-invalid).
  const [edited, setEdited] = useState<{ reply: unknown; fields: ReadonlySet<string> }>({ reply: undefined, fields: new Set() });
  const err = (f: string) => (edited.reply === reply && edited.fields.has(f) ? undefined : firstError(reply, f));
  const onInput = (e: React.FormEvent<HTMLFormElement>) => {
    const name = (e.target as HTMLInputElement).name;
    const fields = edited.reply === reply ? edited.fields : new Set<string>();
    if (name && !fields.has(name)) setEdited({ reply, fields: new Set(fields).add(name) });
  };
  const failed = reply?.status === "error" && !reply.fieldErrors;
  const described = (f: string) => (err(f) ? `${id}-${f}-error` : undefined);
  return (
    <Form method="post" action="/join" className="form-card join-form" aria-labelledby={`${id}-title`} onInput={onInput}>
      <h2 id={`${id}-title`}>Apply to join a team</h2>
      <ErrorSummary reply={reply} labels={LABELS} idPrefix={id} />
      <Honeypot />
      <div className="field">
        <label htmlFor={`${id}-name`}>Full name</label>
        <input id={`${id}-name`} name="name" type="text" required maxLength={APPLICATION_NAME_MAX_LENGTH} autoComplete="name"
          defaultValue={v.name} aria-invalid={err("name") ? true : undefined} aria-describedby={described("name")} />
        <FieldError id={`${id}-name-error`} message={err("name")} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input id={`${id}-email`} name="email" type="email" required maxLength={EMAIL_MAX_LENGTH} autoComplete="email"
          defaultValue={v.email} aria-invalid={err("email") ? true : undefined} aria-describedby={described("email")} />
        <FieldError id={`${id}-email-error`} message={err("email")} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-phone`}>Phone (optional)</label>
        <input id={`${id}-phone`} name="phone" type="tel" maxLength={PHONE_MAX_LENGTH} autoComplete="tel" inputMode="tel"
          defaultValue={v.phone} aria-invalid={err("phone") ? true : undefined} aria-describedby={described("phone")} />
        <FieldError id={`${id}-phone-error`} message={err("phone")} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-role`}>Preferred role</label>
        <select id={`${id}-role`} name="role" required defaultValue={v.role ?? JOIN_ROLES[0]}
          aria-invalid={err("role") ? true : undefined} aria-describedby={described("role")}>
          {JOIN_ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <FieldError id={`${id}-role-error`} message={err("role")} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-message`}>Message (optional)</label>
        <textarea id={`${id}-message`} name="message" maxLength={APPLICATION_MESSAGE_MAX_LENGTH} defaultValue={v.message}
          placeholder="Tell us a little about yourself and how you would like to serve."
          aria-invalid={err("message") ? true : undefined} aria-describedby={described("message")} />
        <FieldError id={`${id}-message-error`} message={err("message")} />
      </div>
      <div className="field field-check">
        <label>
          <input type="checkbox" name="consent" value="yes" required defaultChecked={v.consent === "yes"}
            aria-invalid={err("consent") ? true : undefined} aria-describedby={described("consent")} />{" "}
          {JOIN_CONSENT_LABEL}
        </label>
        <FieldError id={`${id}-consent-error`} message={err("consent")} />
      </div>
      <DataNotice form="join" />
      <button type="submit" className="button-lamp" disabled={busy}>
        {busy ? applicationMessages.join.pending : "Send application"}
      </button>
      <FormStatus tone={failed ? "error" : null}>
        {reply && failed ? (
          <>
            {applicationMessages.join.failure(failureDetail(reply))}{" "}
            <a href={applicationMailto(v)} target="_blank" rel="noopener">
              Email your application
            </a>
          </>
        ) : null}
      </FormStatus>
    </Form>
  );
}
