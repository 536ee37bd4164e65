import { Link, useActionData } from "react-router";
import { PillarGrid } from "~/components/site/pillar-grid";
import { HeroForm } from "~/features/applications/components/hero-form";
import { heroAction } from "~/routes/site/application-forms.server";
import { homeStats, organisation, pillars, roleDescriptions, whatWeDo } from "~/features/site-content/content";
import { pageMeta } from "~/lib/core/meta";
import { site } from "~/lib/core/site";
import type { Route } from "./+types/home";

export const handle = { hydrate: false, page: "home", cacheSeconds: 60 };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: site.name,
    description:
      "A 100% volunteer-led faith, mission and street-outreach community in Nairobi. Walk with us on Friday evenings, join one of nine teams, or support the work.",
    path: "/",
  });

export async function action({ request, context }: Route.ActionArgs) {
  return heroAction(request, context);
}

const quickLinks = [
  { to: "/join", label: "Join a team", note: "Nine open roles" },
  { to: "/badges", label: "Badges", note: "Browse and verify" },
  { to: "/merchandise", label: "Merchandise", note: "Wear the mission" },
  { to: "/about", label: "About us", note: "Who we are" },
];

export default function Home() {
  const reply = useActionData<typeof action>();
  return (
    <>
      <section className="hero home-hero">
        <div className="container hero-split">
          <div>
            <p className="eyebrow">Faith · Mission · Street outreach</p>
            <h1>Carrying light to the streets of Nairobi</h1>
            <p className="lead">
              We are a 100% volunteer-led community. Every other Friday evening we walk the city with tea, songs
              and prayer, and we stay to learn names. Give about {organisation.hoursPerWeek} hours a week and walk
              with us.
            </p>
          </div>
          <HeroForm serverReply={reply} />
        </div>
        <nav className="container quick-links" aria-label="Quick links">
          <ul>
            {quickLinks.map((q) => (
              <li key={q.to}>
                <Link to={q.to} prefetch="intent">
                  <strong>{q.label}</strong>
                  <span>{q.note}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </section>

      <section className="section-tight app-band" aria-labelledby="app-title">
        <div className="container app-block">
          <img src="/brand/logo-mark.svg" width="56" height="56" alt="" />
          <div>
            <h2 id="app-title">Get the outreach app</h2>
            <p>Walk schedules, prayer requests and your badges in your pocket.</p>
          </div>
          <a className="button" href={site.appDownloadUrl} rel="noopener">
            Download the app
          </a>
        </div>
      </section>

      <section className="section" aria-labelledby="pillars-title">
        <div className="container">
          <p className="eyebrow">How we work</p>
          <h2 id="pillars-title">Three pillars</h2>
          <PillarGrid pillars={pillars} />
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="stats-title">
        <div className="container">
          <h2 id="stats-title">Volunteering at a glance</h2>
          <ul className="stats">
            {homeStats.map((s) => (
              <li key={s.label} className="stat">
                <span className="stat-label">{s.label}</span> <strong>{s.value}</strong>
              </li>
            ))}
          </ul>
          <p className="muted stats-note">
            Directors, Pillar Leads, Team Leads and Contributors: nobody is paid, and everyone serves.
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="roles-title">
        <div className="container">
          <p className="eyebrow">Open roles</p>
          <h2 id="roles-title">Find your place on a team</h2>
          <ul className="role-tiles">
            {Object.entries(roleDescriptions).map(([role, description]) => (
              <li key={role}>
                <Link to="/join" className="role-tile">
                  <strong>{role}</strong>
                  <span>{description}</span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-night" aria-labelledby="about-title">
        <div className="container">
          <h2 id="about-title">About us</h2>
          <p className="lead-night">{organisation.about}</p>
          <div className="grid">
            <div className="card">
              <h3>Our mission</h3>
              <p>{organisation.mission}</p>
            </div>
            <div className="card">
              <h3>Our vision</h3>
              <p>{organisation.vision}</p>
            </div>
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="what-title">
        <div className="container">
          <h2 id="what-title">What we do</h2>
          <ul className="grid card-list">
            {whatWeDo.map((g) => (
              <li key={g.title} className="card">
                <h3>{g.title}</h3>
                <ul className="list-check">
                  {g.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          <p className="actions">
            <Link to="/about" className="button">
              More about us
            </Link>
            <Link to="/vespers" className="button button-ghost">
              Street Vespers
            </Link>
          </p>
        </div>
      </section>
    </>
  );
}
