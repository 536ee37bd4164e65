import { Form } from "react-router";
import { ErrorSummary } from "~/components/ui/error-summary";
import { FieldError, FormStatus, Honeypot } from "~/components/ui/form-parts";
import { firstError, type Reply } from "~/lib/core/forms";
import { EMAIL_MAX_LENGTH } from "~/lib/core/rules";

const LABELS = { reference: "Order reference", email: "Email" };

/** Reference plus email: a plain POST that goes on to the order's page. */
export function OrderLookupForm({ reply }: { reply?: Reply }) {
  const v = reply?.values ?? {};
  const err = (f: string) => firstError(reply, f);
  const failed = reply?.status === "error" && !reply.fieldErrors ? reply.message : undefined;
  return (
    <Form method="post" action="/orders" className="form-card" aria-labelledby="lookup-title">
      <h2 id="lookup-title">Find your order</h2>
      <ErrorSummary reply={reply} labels={LABELS} idPrefix="lookup" />
      <Honeypot />
      <div className="field">
        <label htmlFor="lookup-reference">Order reference</label>
        <input id="lookup-reference" name="reference" type="text" required maxLength={12} autoCapitalize="characters"
          placeholder="BO-7KQ2MX" defaultValue={v.reference} aria-invalid={err("reference") ? true : undefined}
          aria-describedby={err("reference") ? "lookup-reference-error" : "lookup-reference-hint"} />
        <p className="small" id="lookup-reference-hint">It is in the email we sent when you ordered.</p>
        <FieldError id="lookup-reference-error" message={err("reference")} />
      </div>
      <div className="field">
        <label htmlFor="lookup-email">Email</label>
        <input id="lookup-email" name="email" type="email" required maxLength={EMAIL_MAX_LENGTH} autoComplete="email"
          defaultValue={v.email} aria-invalid={err("email") ? true : undefined}
          aria-describedby={err("email") ? "lookup-email-error" : undefined} />
        <FieldError id="lookup-email-error" message={err("email")} />
      </div>
      <FormStatus tone={failed ? "error" : null}>{failed}</FormStatus>
      <button type="submit" className="button">Show my order</button>
    </Form>
  );
}
