import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { FormStatus, useHydrated } from "~/components/ui/form-parts";
import { STAFF_HOME } from "../staff-screen";

/**
 * Shown by the staff layout until staff sign in; the key is checked on the server. The key is
 * long and mixed-case, so it can be shown while typed: with JavaScript the box shows it; without,
 * the tick opens a plain box in place of the masked one (CSS), and the server reads whichever
 * was filled in.
 */
export function AdminSignIn({ returnTo, error }: { returnTo: string; error?: string }) {
  const nav = useNavigation();
  const hydrated = useHydrated();
  const [shown, setShown] = useState(false);
  const toggle = useRef<HTMLInputElement>(null);
  // A tick made before the script started counts.
  useEffect(() => setShown(!!toggle.current?.checked), []);
  const busy = nav.state === "submitting" && nav.formAction === STAFF_HOME && nav.formData?.get("intent") === "sign-in";
  return (
    <Form method="post" action={STAFF_HOME} className={hydrated ? "form-card admin-sign-in is-live" : "form-card admin-sign-in"}>
      <h2>Staff sign-in</h2>
      <p className="muted">Enter the shared admin key. You stay signed in on this device for 12 hours.</p>
      <input type="hidden" name="intent" value="sign-in" />
      <input type="hidden" name="returnTo" value={returnTo} />
      <input
        type="checkbox"
        id="show-key"
        name="showKey"
        value="yes"
        className="show-key-toggle"
        ref={toggle}
        onChange={(e) => setShown(e.currentTarget.checked)}
      />
      <label htmlFor="show-key" className="show-key-label">
        Show the key as I type it
      </label>
      <div className="field key-masked">
        <label htmlFor="admin-key">Admin key</label>
        <input
          id="admin-key"
          name="key"
          type={hydrated && shown ? "text" : "password"}
          autoComplete="current-password"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={256}
        />
      </div>
      {hydrated ? null : (
        <div className="field key-plain">
          <label htmlFor="admin-key-plain">Key, shown as typed</label>
          <input id="admin-key-plain" name="keyShown" type="text" autoComplete="off" autoCapitalize="off" autoCorrect="off" spellCheck={false} maxLength={256} />
        </div>
      )}
      <button type="submit" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
      <FormStatus tone={error ? "error" : null}>{error}</FormStatus>
    </Form>
  );
}
