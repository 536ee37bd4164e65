import { Form, useNavigation } from "react-router";
import { FormStatus } from "~/components/ui/form-parts";
import { STAFF_HOME } from "../staff-screen";

/** Shown by the staff layout until staff sign in; the key is checked on the server. */
export function AdminSignIn({ returnTo, error }: { returnTo: string; error?: string }) {
  const nav = useNavigation();
  const busy = nav.state === "submitting" && nav.formAction === STAFF_HOME && nav.formData?.get("intent") === "sign-in";
  return (
    <Form method="post" action={STAFF_HOME} className="form-card admin-sign-in">
      <h2>Staff sign-in</h2>
      <p className="muted">Enter the shared admin key. You stay signed in on this device for 12 hours.</p>
      <input type="hidden" name="intent" value="sign-in" />
      <input type="hidden" name="returnTo" value={returnTo} />
      <div className="field">
        <label htmlFor="admin-key">Admin key</label>
        <input id="admin-key" name="key" type="password" autoComplete="current-password" required maxLength={256} />
      </div>
      <button type="submit" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
      <FormStatus tone={error ? "error" : null}>{error}</FormStatus>
    </Form>
  );
}
