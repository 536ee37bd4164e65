import { privacyNotice } from "~/features/people/privacy-notice.server";
import { MY_DATA_PATH } from "~/features/people/people";
import { periodWords } from "~/features/people/retention";
import { pageMeta } from "~/lib/core/meta";
import { site } from "~/lib/core/site";
import type { Route } from "./+types/privacy";

export const handle = { hydrate: false, page: "privacy", cacheSeconds: 60 };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Privacy policy",
    description: `What ${site.name} collects when you visit or write to us, why, who sees it, how long we keep it and how to have it deleted.`,
    path: "/privacy",
  });

/** Generated from configuration and the retention rules, so it says what the site does. */
export function loader() {
  return privacyNotice();
}

export default function Privacy({ loaderData: n }: Route.ComponentProps) {
  return (
    <article className="section">
      <div className="container narrow prose">
        <p className="eyebrow">Privacy</p>
        <h1>Privacy policy</h1>
        <p className="lead">
          We are a volunteer-led ministry. We collect as little as we can, we never sell it, and you can ask us for a copy of
          it or to erase it at any time.
        </p>

        <h2>Who is responsible</h2>
        <p>
          The data controller is <strong>{n.controller}</strong>, {n.city}, Kenya, under the Data Protection Act, 2019.
          Write to <a href={`mailto:${n.contact}`}>{n.contact}</a> about your data.
        </p>

        <h2>What we collect</h2>
        <ul>
          <li>
            <strong>What you send us.</strong> Your email address when you subscribe or apply, and the name, phone number
            and message you add to an application, a badge order or a merchandise order; a portrait if you add one to a badge
            order.
          </li>
          <li>
            <strong>An application to join a team shows your faith</strong>: that is sensitive personal data, and we keep it
            only with your explicit consent, given by the tick on the join form.
          </li>
          <li>
            <strong>Payments.</strong> M-Pesa tells us the receipt, the amount, and the payer&rsquo;s name and number.
          </li>
          <li>
            <strong>How the site is used.</strong> Pages viewed and interactions such as reactions, poll answers, shares and
            button clicks, counted against a random client id kept in your browser, never your name or email. We do not
            store your IP address with page views.
          </li>
        </ul>

        <h2>Why we use it</h2>
        <ul>
          <li>To answer your application (your consent), send the updates you asked for (your consent), and fulfil your badge or merchandise order (our contract with you).</li>
          <li>To keep the accounts the law asks of us: order references, amounts, dates and M-Pesa receipts.</li>
          <li>To understand which pages help people, and to protect the forms from spam and abuse (our legitimate interest).</li>
        </ul>

        <h2>Who processes it for us</h2>
        <ul>
          {n.processors.map((p) => (
            <li key={p.name}>
              <strong>{p.name}</strong>: {p.why}.
            </li>
          ))}
        </ul>
        <p>We never sell your data, and we use no advertising trackers.</p>

        <h2>How long we keep it</h2>
        <ul>
          {n.rules.map((r) => (
            <li key={r.key}>
              {r.what}: {periodWords(r.days)} {r.after}.
            </li>
          ))}
          <li>Raw analytics events: 90 days, then only daily counts that say nothing about you.</li>
          <li>Order references, amounts, dates, M-Pesa receipts and payment states stay for our accounts, without your name, email or phone once those periods pass or you ask us to erase them.</li>
        </ul>

        <h2>Which emails we send</h2>
        <ul>
          <li>
            <strong>Updates</strong> (the newsletter and new blog posts) go only to those who subscribed; every one has a
            one-click unsubscribe link.
          </li>
          <li>
            <strong>Transactional emails</strong> are about something you did: an application received, an order received,
            approved or rejected, your badge kit, the day-before reminder for your event, a link to your data. They have no
            unsubscribe link; they stop when there is nothing more to tell you.
          </li>
        </ul>

        <h2>Your rights</h2>
        <ul>
          <li>To be told what we hold and to get a copy: ask at <a href={MY_DATA_PATH}>{MY_DATA_PATH}</a>, and a link to download it is mailed to your address.</li>
          <li>To have it erased: ask at the same page; our staff confirm and erase it. We keep only what our accounts need, without you.</li>
          <li>To have it corrected, to object to its use, or to withdraw a consent: write to <a href={`mailto:${n.contact}`}>{n.contact}</a>.</li>
          <li>We answer within 30 days, usually much sooner.</li>
        </ul>

        <h2>Complaints</h2>
        <p>
          If you are not satisfied with our answer, you may complain to the <strong>Office of the Data Protection
          Commissioner</strong> (ODPC), Kenya: <a href="https://www.odpc.go.ke">www.odpc.go.ke</a>, where its complaint form
          is.
        </p>
        <p className="muted small">Last updated: November 2026.</p>
      </div>
    </article>
  );
}
