import { ResponsiveImage } from "~/components/ui/responsive-image";
import { Link, useActionData, useMatches } from "react-router";
import { Logo } from "~/components/layout/logo";
import { AnnouncementDialog } from "~/components/site/announcement-dialog";
import { PartnerMarquee } from "~/components/site/partner-marquee";
import { StepList, TitledGrid } from "~/components/site/titled-list";
import { useRevealOnScroll } from "~/components/site/use-reveal-on-scroll";
import { NewsletterForm } from "~/features/newsletter/components/newsletter-form";
import { newsletterAction } from "~/routes/site/newsletter-form.server";
import { vespers } from "~/features/site-content/vespers";
import { pageMeta, publicOrigin } from "~/lib/core/meta";
import type { Route } from "./+types/vespers";

export const handle = { page: "vespers", cacheSeconds: 60 };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Street Vespers",
    description:
      "Evening prayer on the streets of Nairobi, every other Friday. Next: the Street Vespers fundraising concert on 23 November 2025, partner target 468,500 Ksh.",
    path: "/vespers",
  });

const poster = {
  src: "/images/vespers-poster.webp",
  width: 300,
  height: 400,
  alt: "Poster: Street Vespers Fundraising Concert, 23 November 2025, Nairobi. Songs, stories and prayer. Partner target 468,500 Ksh.",
};

export async function action({ request, context }: Route.ActionArgs) {
  return newsletterAction(request, context);
}

export default function Vespers() {
  const reply = useActionData<typeof action>();
  useRevealOnScroll();
  const pageUrl = `${publicOrigin(useMatches())}/vespers`;
  const shareHref = `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(pageUrl)}`;
  const next = vespers.nextEvent;
  return (
    <>
      <header className="vespers-bar">
        <div className="container vespers-bar-inner">
          <p className="vespers-brand">
            <Logo size={32} />
            <span>Street Vespers</span>
          </p>
          <div className="vespers-bar-actions">
            <Link to="/event" className="button button-lamp button-small">
              Get a Badge
            </Link>
            <a className="button button-ghost button-small" href={shareHref} target="_blank" rel="noopener noreferrer">
              Share<span className="visually-hidden"> this page on LinkedIn (opens in a new tab)</span>
            </a>
          </div>
        </div>
      </header>

      <section className="hero vespers-hero">
        <div className="container narrow">
          <p className="eyebrow">Street Vespers · Nairobi</p>
          <h1>Evening prayer on the streets of Nairobi</h1>
          <p className="lead">
            {vespers.rhythm}, we sing, pray, open the Word and share a meal with the people who make the streets their
            home. Street Vespers is where our outreach begins, and where anyone can join.
          </p>
          <p className="actions">
            <a href="#vision" className="button button-lamp">
              Explore the Vision
            </a>
            <Link to="/event" className="button button-ghost hero-ghost">
              Earn a Badge
            </Link>
          </p>
        </div>
      </section>

      <section className="section reveal" aria-labelledby="spotlight-title">
        <div className="container spotlight">
          <div>
            <p className="eyebrow">Initiative spotlight</p>
            <h2 id="spotlight-title">Next: {next.title}</h2>
            <p className="spotlight-date">
              <time dateTime={next.dateTime}>{next.date}</time>
            </p>
            <p>{next.text}</p>
            <p className="target">
              <span>Partner target</span> <strong>{next.partnerTarget}</strong>
            </p>
            <ul className="list-check">
              {next.uses.map((u) => (
                <li key={u}>{u}</li>
              ))}
            </ul>
            <p className="actions">
              <Link to="/event" className="button">
                Choose a badge tier
              </Link>
            </p>
          </div>
          <ResponsiveImage className="poster" src={poster.src} width={poster.width} height={poster.height} maxWidth={300} sizes="(min-width: 340px) 300px, 100vw" alt={poster.alt} />
        </div>
      </section>

      <section className="section render-later section-alt reveal" aria-labelledby="updates-title" data-scripts-start="near">
        <div className="container narrow">
          <h2 id="updates-title">Get vespers updates</h2>
          <p>Dates, routes and concert news, straight to your inbox. No spam, and you can leave with one click.</p>
          <NewsletterForm variant="vespers" source="vespers" action="/vespers" serverReply={reply} />
        </div>
      </section>

      <section className="section render-later section-night reveal" id="vision" aria-labelledby="vision-title">
        <div className="container">
          <h2 id="vision-title">Vision and mission</h2>
          <div className="grid">
            <div className="card">
              <h3>Vision</h3>
              <p>{vespers.vision}</p>
            </div>
            <div className="card">
              <h3>Mission</h3>
              <p>{vespers.mission}</p>
            </div>
          </div>
        </div>
      </section>

      <section className="section render-later reveal" aria-labelledby="scaling-title">
        <div className="container">
          <h2 id="scaling-title">Scaling outreach</h2>
          <p className="lead">We grow only as fast as we can train people to serve well.</p>
          <TitledGrid items={vespers.scaling} />
        </div>
      </section>

      <section className="section render-later section-alt reveal" aria-labelledby="pathway-title">
        <div className="container">
          <div className="card pathway-card">
            <h2 id="pathway-title">Your service pathway</h2>
            <p>Nobody starts as a leader. This is how volunteers grow with us, one Friday at a time.</p>
            <StepList steps={vespers.pathway} />
          </div>
        </div>
      </section>

      <section className="section render-later reveal" aria-labelledby="partners-title">
        <div className="container">
          <h2 id="partners-title">Walking with partners</h2>
          <p>Clinics, kitchens, mentors and friends who make each evening possible.</p>
        </div>
        <PartnerMarquee partners={vespers.partners} />
      </section>

      <section className="section render-later section-alt reveal" aria-labelledby="objectives-title">
        <div className="container narrow">
          <h2 id="objectives-title">Objectives</h2>
          <ul className="list-check">
            {vespers.objectives.map((o) => (
              <li key={o}>{o}</li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section render-later reveal" aria-labelledby="journey-title">
        <div className="container narrow">
          <h2 id="journey-title">Our journey</h2>
          <ol className="timeline">
            {vespers.timeline.map((t) => (
              <li key={t.when}>
                <p className="timeline-when">{t.when}</p>
                <h3>{t.title}</h3>
                <p>{t.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section render-later section-alt reveal" aria-labelledby="serve-title">
        <div className="container">
          <h2 id="serve-title">Who we serve</h2>
          <TitledGrid items={vespers.whoWeServe} />
        </div>
      </section>

      <section className="section render-later reveal" aria-labelledby="growth-title">
        <div className="container">
          <h2 id="growth-title">Sustainable growth</h2>
          <p className="lead">Steady, local support instead of emergency appeals, so the Friday rhythm never stops.</p>
          <TitledGrid items={vespers.growth} />
        </div>
      </section>

      <section className="section render-later section-night reveal" aria-labelledby="guidelines-title">
        <div className="container narrow">
          <h2 id="guidelines-title">Ministry session guidelines</h2>
          <p>Every volunteer agrees to these before their first evening on the street.</p>
          <ol className="guidelines">
            {vespers.guidelines.map((g) => (
              <li key={g}>{g}</li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section render-later reveal" aria-labelledby="environment-title">
        <div className="container">
          <h2 id="environment-title">Our operating environment</h2>
          <p className="lead">An honest look at what helps us and what holds us back.</p>
          <ul className="grid card-list">
            {vespers.environment.map((e) => (
              <li key={e.title} className="card">
                <h3>{e.title}</h3>
                <ul>
                  {e.items.map((i) => (
                    <li key={i}>{i}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section render-later section-alt reveal" aria-labelledby="recommendations-title">
        <div className="container narrow">
          <h2 id="recommendations-title">Recommendations</h2>
          <ol className="recommendations">
            {vespers.recommendations.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ol>
          <p className="actions">
            <Link to="/event" className="button button-lamp">
              Earn a badge for the concert
            </Link>
            <Link to="/join" className="button button-ghost">
              Join a team
            </Link>
          </p>
        </div>
      </section>

      <AnnouncementDialog
        title="Join us on 23 November"
        text="The Street Vespers fundraising concert: an evening of music and stories that funds a year on the streets."
        poster={poster}
        to="/event"
      />
    </>
  );
}
