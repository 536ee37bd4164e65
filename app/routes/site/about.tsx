import { Link, useActionData } from "react-router";
import { PillarGrid } from "~/components/site/pillar-grid";
import { TitledGrid } from "~/components/site/titled-list";
import { NewsletterForm } from "~/features/newsletter/components/newsletter-form";
import { newsletterAction } from "~/routes/site/newsletter-form.server";
import { goals, needs, peopleModel, teams } from "~/features/site-content/about";
import { organisation, pillars, reasons } from "~/features/site-content/content";
import { pageMeta } from "~/lib/core/meta";
import type { Route } from "./+types/about";

export const handle = { hydrate: false, page: "about", cacheSeconds: 60 };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "About us",
    description:
      "Who we are: a volunteer-led faith and street-outreach community in Nairobi. Our pillars, people, goals for 2025-2026 and the six teams you can join.",
    path: "/about",
  });

export async function action({ request, context }: Route.ActionArgs) {
  return newsletterAction(request, context);
}

export default function About() {
  const reply = useActionData<typeof action>();
  return (
    <>
      <section className="hero">
        <div className="container narrow">
          <p className="eyebrow">About us</p>
          <h1>A volunteer family serving Nairobi's streets</h1>
          <p className="lead">{organisation.about}</p>
          <p className="hero-quote">
            <strong>Our mission:</strong> {organisation.mission}
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="pillars-title">
        <div className="container">
          <h2 id="pillars-title">Our three pillars</h2>
          <PillarGrid pillars={pillars} />
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="people-title">
        <div className="container">
          <h2 id="people-title">Our people model</h2>
          <p className="lead">{peopleModel.intro}</p>
          <ol className="ladder">
            {peopleModel.ladder.map((rung) => (
              <li key={rung.title}>
                <h3>{rung.title}</h3>
                <p>{rung.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section" aria-labelledby="goals-title">
        <div className="container">
          <p className="eyebrow">Where we are heading</p>
          <h2 id="goals-title">Our goals for 2025-2026</h2>
          <ul className="goals">
            {goals.map((g) => (
              <li key={g.label}>
                <strong>{g.figure}</strong> <span>{g.label}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="needs-title">
        <div className="container two-col">
          <div>
            <h2 id="needs-title">What we are looking for</h2>
            <ul className="list-check">
              {needs.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          </div>
          <div>
            <h2 id="why-title">Why join</h2>
            <TitledGrid items={reasons} className="compact" />
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="teams-title">
        <div className="container">
          <h2 id="teams-title">Six teams, one mission</h2>
          <ul className="grid card-list team-grid">
            {teams.map((t) => (
              <li key={t.name} className="card team-card">
                <img src={t.image} width={t.width} height={t.height} alt="" loading="lazy" decoding="async" />
                <div>
                  <h3>{t.name}</h3>
                  <p>{t.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="cta-title">
        <div className="container two-col cta-panel section-night">
          <div>
            <h2 id="cta-title">Ready to serve?</h2>
            <p>
              Pick a team, tell us a little about yourself, and come to a Friday walk. About{" "}
              {organisation.hoursPerWeek} hours a week is enough to make a difference.
            </p>
            <p className="actions">
              <Link to="/join" className="button button-lamp">
                Join a team
              </Link>
            </p>
          </div>
          <div className="form-card">
            <h3>Not ready yet? Get our updates</h3>
            <NewsletterForm variant="about" source="about" action="/about" serverReply={reply} />
          </div>
        </div>
      </section>
    </>
  );
}
