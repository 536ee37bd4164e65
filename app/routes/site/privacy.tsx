import { pageMeta } from "~/lib/meta";
import { site } from "~/lib/site";
import type { Route } from "./+types/privacy";

export const handle = { hydrate: false, page: "privacy", cacheSeconds: 60 };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Privacy policy",
    description: `What ${site.name} collects when you visit or write to us, why, who sees it, how long we keep it and how to have it deleted.`,
    path: "/privacy",
  });

export default function Privacy() {
  return (
    <article className="section">
      <div className="container narrow prose">
        <p className="eyebrow">Privacy</p>
        <h1>Privacy policy</h1>
        <p className="lead">
          We are a volunteer-led ministry. We collect as little as we can, we never sell it, and you can ask us to
          delete it at any time.
        </p>

        <h2>What we collect</h2>
        <ul>
          <li>
            <strong>What you send us.</strong> Your email address when you subscribe or apply, and the name, phone
            number and message you choose to add to an application, a badge order or a merchandise order.
          </li>
          <li>
            <strong>How the site is used.</strong> Pages viewed and interactions such as reactions, poll answers,
            shares and button clicks.
          </li>
          <li>
            <strong>Approximate device information.</strong> The kind of browser and whether you are on a phone or a
            computer, never a fingerprint of your device.
          </li>
          <li>
            <strong>A random client id.</strong> A random string kept in a cookie or in your browser's local
            storage, so we can count visits without knowing who you are. It is not linked to your name or email.
          </li>
        </ul>

        <h2>How we use it</h2>
        <ul>
          <li>To answer your application, send the updates you asked for, and process your badge or merchandise order.</li>
          <li>To understand which pages help people, and to fix what does not work.</li>
          <li>To protect the forms from spam and abuse.</li>
        </ul>

        <h2>Who we share it with</h2>
        <p>
          We never sell your data, and we do not use advertising trackers. The only outside service that sees your
          details is our mail provider, which delivers the emails we send you.
        </p>

        <h2>How long we keep it</h2>
        <ul>
          <li>Raw analytics events are kept for 90 days, then rolled up into daily counts that say nothing about you.</li>
          <li>We do not store your raw IP address with page views.</li>
          <li>Applications, subscriptions and order records are kept while they are needed for the reason you gave them, then deleted.</li>
        </ul>

        <h2>Your choices</h2>
        <ul>
          <li>Every email we send has a one-click unsubscribe link.</li>
          <li>
            Email us to see the data we hold about you, to correct it or to have it deleted. We will answer within
            30 days, usually much sooner.
          </li>
          <li>You can clear the client id at any time by clearing this site's cookies and storage in your browser.</li>
        </ul>

        <h2>Contact</h2>
        <p>
          Questions about your data? Write to <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>.
        </p>
        <p className="muted small">Last updated: November 2025.</p>
      </div>
    </article>
  );
}
