import { Link, NavLink } from "react-router";
import { site } from "~/lib/core/site";
import { Logo } from "./logo";

const nav = [
  { to: "/about", label: "About" },
  { to: "/vespers", label: "Vespers" },
  { to: "/event", label: "Event" },
  { to: "/blogs", label: "Blog" },
  { to: "/merchandise", label: "Store" },
];

function NavItems({ className }: { className: string }) {
  return (
    <ul className={className}>
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
  );
}

/**
 * One row on every screen: on a phone the menu folds into a `<details>` (it opens without
 * JavaScript); from tablet width the links sit in the row.
 */
export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Link to="/" className="brand" aria-label={`${site.name}, home`}>
          <Logo />
          <span className="brand-name">{site.name}</span>
        </Link>
        <nav aria-label="Main" className="nav-wide">
          <NavItems className="nav-list" />
        </nav>
        <details className="nav-compact">
          <summary>
            <span aria-hidden="true" className="nav-burger" />
            Menu
          </summary>
          <nav aria-label="Main menu">
            <NavItems className="nav-drop" />
          </nav>
        </details>
      </div>
    </header>
  );
}
