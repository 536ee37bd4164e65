import { StepList } from "~/components/site/titled-list";
import { ministry } from "~/features/site-content/ministry";
import { pageMeta } from "~/lib/core/meta";
import { site } from "~/lib/core/site";
import type { Route } from "./+types/ministry";

export const handle = { hydrate: false, page: "ministry", cacheSeconds: 60 };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Campus ministry",
    description:
      "Invite our volunteers to your school, university or chaplaincy: assemblies, mission weeks and student-leader training in Nairobi. Next: a university mission week, 05-18 September 2025.",
    path: "/ministry",
  });

/** A pre-filled email: the visitor only has to fill in the blanks. */
function inviteHref(topic: string, request = "We would like to invite your ministry team to our campus.") {
  const subject = `Ministry invitation: ${topic}`;
  const body = [
    "Hello,",
    "",
    request,
    "",
    "School / institution:",
    "Contact person and role:",
    "Phone:",
    "Preferred dates:",
    "Number of students:",
    "What we hope for:",
    "",
    "Thank you,",
  ].join("\n");
  return `mailto:${site.ministryEmail}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

export default function Ministry() {
  const week = ministry.missionWeek;
  return (
    <>
      <section className="hero">
        <div className="container narrow">
          <p className="eyebrow">Campus ministry</p>
          <h1>We come to your school, campus or chaplaincy</h1>
          <p className="lead">
            Young people shaped our street outreach, so we take it back to where they are. Our volunteers lead worship,
            talks, mission weeks and leader training, always alongside your own team.
          </p>
          <p className="actions">
            <a className="button button-lamp" href={inviteHref("Campus ministry")}>
              Invite us<span className="visually-hidden"> to your campus</span>
            </a>
            <a className="button button-ghost hero-ghost" href="#journey">
              How we work with you
            </a>
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="offer-title">
        <div className="container">
          <h2 id="offer-title">Schools, missions and chaplaincy</h2>
          <ul className="grid card-list">
            {ministry.offers.map((o) => (
              <li key={o.id} className="card offer-card">
                <h3>{o.title}</h3>
                <p>{o.text}</p>
                <a className="button" href={inviteHref(o.title, o.invite)}>
                  Invite us<span className="visually-hidden"> for {o.title.toLowerCase()}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-night" aria-labelledby="focus-title">
        <div className="container narrow">
          <p className="eyebrow eyebrow-night">Current mission focus</p>
          <h2 id="focus-title">{week.title}</h2>
          <p className="focus-dates">
            <time dateTime={week.start}>05</time>-<time dateTime={week.end}>18 September 2025</time>
          </p>
          <p>{week.text}</p>
          <p className="actions">
            <a className="button button-lamp" href={inviteHref("Mission week", "We would like to plan a mission week with your team.")}>
              Plan a mission week with us
            </a>
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="stories-title">
        <div className="container">
          <h2 id="stories-title">Stories from campus</h2>
          <ul className="grid card-list stories">
            {ministry.stories.map((s) => (
              <li key={s.title} className="card">
                <p className="story-place">{s.place}</p>
                <h3>{s.title}</h3>
                <p>{s.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-alt" id="journey" aria-labelledby="journey-title">
        <div className="container">
          <h2 id="journey-title">How we work together</h2>
          <StepList steps={ministry.journey} />
        </div>
      </section>

      <section className="section" aria-labelledby="contact-title">
        <div className="container narrow">
          <div className="card contact-card">
            <h2 id="contact-title">Talk to the ministry team</h2>
            <p>
              Write to <a href={`mailto:${site.ministryEmail}`}>{site.ministryEmail}</a>. We reply{" "}
              <strong>{ministry.replyPromise}</strong>, and we will happily call you back.
            </p>
            <p className="actions">
              <a className="button" href={inviteHref("Campus ministry")}>
                Invite us<span className="visually-hidden"> to your campus</span>
              </a>
            </p>
          </div>
        </div>
      </section>
    </>
  );
}
