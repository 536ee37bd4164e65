import { Link, NavLink } from "react-router";
import { site } from "~/lib/site";
import { Logo } from "./logo";

const nav = [
  { to: "/about", label: "About" },
  { to: "/vespers", label: "Vespers" },
  { to: "/event", label: "Event" },
  { to: "/blogs", label: "Blog" },
  { to: "/merchandise", label: "Store" },
];

export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Link to="/" className="brand" aria-label={`${site.name}, home`}>
          <Logo />
          <span className="brand-name">{site.name}</span>
        </Link>
        <nav aria-label="Main">
          <ul className="nav-list">
            {nav.map((n) => (
              <li key={n.to}>
                <NavLink to={n.to} prefetch="intent">
                  {n.label}
                </NavLink>
              </li>
            ))}
            <li>
              <NavLink to="/join" className="button button-small" prefetch="intent">
                Join a team
              </NavLink>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
