import { Link } from "react-router";
import { pageMeta } from "~/lib/core/meta";
import type { Route } from "./+types/join-thanks";

export const handle = { hydrate: false, page: "join.thanks", cacheSeconds: 60 };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Thank you for applying",
    description: "Your application has reached us. A Team Lead will be in touch by email.",
    path: "/join/thanks",
    noindex: true,
  });

export default function JoinThanks() {
  return (
    <section className="section">
      <div className="container narrow thanks">
        <p className="eyebrow">Application received</p>
        <h1>Thank you for applying!</h1>
        <p className="lead">
          Your application has reached us, and a person, not a robot, will read it. A Team Lead will email you
          within a week to set up a short intro call.
        </p>
        <p>In the meantime, pray for the streets of Nairobi with us, and have a look at the badges our volunteers earn.</p>
        <p className="actions">
          <Link to="/" className="button">
            Back to home
          </Link>
          <Link to="/badges" className="button button-ghost">
            Explore badges
          </Link>
        </p>
      </div>
    </section>
  );
}
