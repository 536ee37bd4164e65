import { Form, Link, NavLink, useLocation } from "react-router";
import { site } from "~/lib/core/site";
import { STAFF_HOME, STAFF_SCREENS, wrongKeysText } from "../staff-screen";

type Props = {
  signedIn: boolean;
  wrongKeys: { keys: number; addresses: number } | null;
};

/** The form 'Sign out everywhere' submits (its button in the row, or in the phone menu). */
const EVERYWHERE_FORM = "staff-sign-out-everywhere";

function StaffLinks() {
  return (
    <ul>
      {STAFF_SCREENS.map((s) => (
        <li key={s.to}>
          <NavLink to={s.to} end reloadDocument={"reloadDocument" in s}>
            {s.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/**
 * The staff screens' own slim header: the site's name, every staff screen, and signing out.
 * On a phone it is one row (the name, Menu, Sign out): the screens and 'Sign out everywhere'
 * fold into a `<details>` menu that opens without JavaScript. 'Sign out everywhere' asks first
 * (the server's question, on /admin), and comes back here when staff cancel.
 */
export function StaffHeader({ signedIn, wrongKeys }: Props) {
  const here = useLocation();
  const returnTo = `${here.pathname}${here.search}`.slice(0, 300);
  return (
    <header className="staff-header">
      <div className="staff-container staff-header-inner">
        <Link to="/" className="staff-brand">
          {site.name}
          <span className="staff-brand-tag">Staff</span>
        </Link>
        {signedIn ? (
          <>
            <nav aria-label="Staff tools" className="staff-nav">
              <StaffLinks />
            </nav>
            {/* Keyed by the address: after a tap on a screen it is closed again. */}
            <details className="staff-menu" key={here.pathname}>
              <summary>
                <span aria-hidden="true" className="nav-burger" />
                Menu
              </summary>
              <div className="staff-drop">
                <nav aria-label="Staff tools menu">
                  <StaffLinks />
                </nav>
                <button type="submit" form={EVERYWHERE_FORM} className="button-ghost button-small">
                  Sign out everywhere…
                </button>
              </div>
            </details>
            <div className="staff-session">
              <Form method="post" action={STAFF_HOME}>
                <input type="hidden" name="intent" value="sign-out" />
                <button type="submit" className="button-ghost button-small">
                  Sign out
                </button>
              </Form>
              <Form method="post" action={STAFF_HOME} id={EVERYWHERE_FORM} className="staff-everywhere">
                <input type="hidden" name="intent" value="sign-out-everywhere" />
                <input type="hidden" name="returnTo" value={returnTo} />
                <button type="submit" className="button-ghost button-small">
                  Sign out everywhere…
                </button>
              </Form>
            </div>
          </>
        ) : null}
      </div>
      {signedIn && wrongKeys ? (
        <p className="staff-notice">
          <span className="staff-container">
            {wrongKeysText(wrongKeys)} — see <Link to="/admin/activity">Activity</Link>
          </span>
        </p>
      ) : null}
    </header>
  );
}
