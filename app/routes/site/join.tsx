import { useActionData } from "react-router";
import { StepList, TitledGrid } from "~/components/site/titled-list";
import { JoinForm } from "~/features/applications/components/join-form";
import { joinAction } from "~/routes/site/application-forms.server";
import { JOIN_ROLES } from "~/features/applications/roles";
import { organisation, reasons, roleDescriptions } from "~/features/site-content/content";
import { joinFaq, joinSteps } from "~/features/site-content/join";
import { pageMeta } from "~/lib/core/meta";
import type { Route } from "./+types/join";

export const handle = { page: "join", cacheSeconds: 60 };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Join a team",
    description:
      "Volunteer with a faith and street-outreach community in Nairobi: nine open roles in tech, media, evangelism, events and community, about 6 hours a week.",
    path: "/join",
  });

export async function action({ request, context }: Route.ActionArgs) {
  return joinAction(request, context);
}

export default function Join() {
  const reply = useActionData<typeof action>();
  // A form that came back (a plain post reloads at the top) is shown first, above the page.
  const returned = reply?.status === "error";
  const form = (
    <section className="section" id="apply" data-scripts-start="idle">
      <div className="container narrow">
        <JoinForm reply={reply} />
      </div>
    </section>
  );
  return (
    <>
      {returned ? form : null}
      <section className="hero">
        <div className="container narrow">
          <p className="eyebrow">Volunteer with us</p>
          <h1>Join a team</h1>
          <p className="lead">
            Bring your skills, your faith and about {organisation.hoursPerWeek} hours a week. We will bring the
            training, a team and a Friday walk you will not forget.
          </p>
          <p className="actions">
            <a href="#apply" className="button button-lamp">
              Apply now
            </a>
          </p>
        </div>
      </section>

      <section className="section" aria-labelledby="why-title">
        <div className="container">
          <h2 id="why-title">Why join</h2>
          <TitledGrid items={reasons} />
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="roles-title">
        <div className="container">
          <h2 id="roles-title">Nine open roles</h2>
          <ul className="role-list">
            {JOIN_ROLES.map((role) => (
              <li key={role}>
                <h3>{role}</h3>
                <p>{roleDescriptions[role]}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="expect-title">
        <div className="container">
          <h2 id="expect-title">What to expect</h2>
          <StepList steps={joinSteps} />
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="faq-title">
        <div className="container narrow">
          <h2 id="faq-title">Questions people ask</h2>
          {joinFaq.map((f) => (
            <details key={f.q} className="faq">
              <summary>{f.q}</summary>
              <p>{f.a}</p>
            </details>
          ))}
        </div>
      </section>

      {returned ? null : form}
    </>
  );
}
