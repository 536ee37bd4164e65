import { Form, Link, NavLink } from "react-router";
import { site } from "~/lib/site";
import { STAFF_HOME, STAFF_SCREENS, wrongKeysText } from "../staff-screen";

type Props = {
  signedIn: boolean;
  wrongKeys: { keys: number; addresses: number } | null;
};

/** The staff screens' own slim header: the site's name, every staff screen, and signing out. */
export function StaffHeader({ signedIn, wrongKeys }: Props) {
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
              <ul>
                {STAFF_SCREENS.map((s) => (
                  <li key={s.to}>
                    <NavLink to={s.to} end reloadDocument={"reloadDocument" in s}>
                      {s.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="staff-session">
              <Form method="post" action={STAFF_HOME}>
                <input type="hidden" name="intent" value="sign-out" />
                <button type="submit" className="button-ghost button-small">
                  Sign out
                </button>
              </Form>
              <Form method="post" action={STAFF_HOME}>
                <input type="hidden" name="intent" value="sign-out-everywhere" />
                <button type="submit" className="button-ghost button-small">
                  Sign out everywhere
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
