import { Link, useLocation } from "react-router";
import { NewsletterForm } from "~/features/newsletter/components/newsletter-form";
import { liteToggleHref } from "~/lib/core/data-saver";
import { useKnownSearch } from "~/lib/core/page-cache";
import { site } from "~/lib/core/site";
import { useLite } from "./use-lite";

const links = [
  { to: "/", label: "Home" },
  { to: "/vespers", label: "Street Vespers" },
  { to: "/event", label: "Event & badges" },
  { to: "/ministry", label: "Campus ministry" },
  { to: "/badges", label: "Badges" },
  { to: "/merchandise", label: "Merchandise" },
  { to: "/about", label: "About" },
  { to: "/blogs", label: "Blog" },
  { to: "/join", label: "Join a team" },
  { to: "/privacy", label: "Privacy" },
];

export function SiteFooter() {
  const { pathname } = useLocation();
  // As the page cache keys the page: a cached page's bytes carry no one's own parameters.
  const search = useKnownSearch();
  const lite = useLite();
  return (
    <footer className="site-footer" id="newsletter">
      <div className="container footer-grid">
        <section aria-labelledby="footer-newsletter-title">
          <h2 id="footer-newsletter-title">Stay in the loop</h2>
          <p>Stories from the streets, vespers evenings and volunteer openings. A few emails a month at most.</p>
          <NewsletterForm variant="footer" source={`footer:${pathname.replace(/[^A-Za-z0-9._:/-]/g, "-")}`.slice(0, 80)} />
        </section>
        <nav aria-label="Footer">
          <h2>Explore</h2>
          <ul className="footer-links">
            {links.map((l) => (
              <li key={l.to}>
                <Link to={l.to}>{l.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-labelledby="footer-contact-title">
          <h2 id="footer-contact-title">Contact</h2>
          <p>
            <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
          </p>
          <p>{site.city}, Kenya</p>
          <p className="small">100% volunteer-led. © {new Date().getFullYear()} {site.name}</p>
          {/* A plain link (a full page load): the mode decides whether the next page has scripts. */}
          <p className="small lite-toggle">
            {lite ? (
              <>
                Lite mode: no scripts, less data.{" "}
                <a href={liteToggleHref(false, pathname + search)} rel="nofollow">
                  Full site
                </a>
              </>
            ) : (
              <a href={liteToggleHref(true, pathname + search)} rel="nofollow">
                Lite mode (saves data)
              </a>
            )}
          </p>
        </section>
      </div>
    </footer>
  );
}
