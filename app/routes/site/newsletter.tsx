import { useActionData } from "react-router";
import { NewsletterForm } from "~/features/newsletter/components/newsletter-form";
import { newsletterAction } from "~/routes/site/newsletter-form.server";
import type { NewsletterVariant } from "~/features/newsletter/messages";
import { pageMeta } from "~/lib/core/meta";
import type { Route } from "./+types/newsletter";

export const handle = { hydrate: false, page: "newsletter" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Newsletter",
    description: "Get stories from the streets, vespers evenings and volunteer openings by email.",
    path: "/newsletter",
  });

export async function action({ request, context }: Route.ActionArgs) {
  return newsletterAction(request, context);
}

/** Where newsletter boxes land without JavaScript: the result, and the form again. */
export default function NewsletterPage() {
  const reply = useActionData<typeof action>();
  const echo = reply?.result ?? reply?.values;
  const source = String(echo?.source || "newsletter");
  const sent = echo?.variant;
  const variant: NewsletterVariant =
    sent === "about" || sent === "event" || sent === "vespers" ? sent : "footer";
  const back = source.startsWith("footer:") ? source.slice("footer:".length) : "/";
  return (
    <section className="section">
      <div className="container narrow">
        <p className="eyebrow">Newsletter</p>
        <h1>Stay in the loop</h1>
        <p className="lead">
          Stories from the streets, vespers evenings and volunteer openings. A few emails a month at most, and
          every message has a one-click unsubscribe link.
        </p>
        <div className="form-card">
          <NewsletterForm variant={variant} source={source} serverReply={reply} />
        </div>
        {reply ? (
          <p className="actions">
            <a className="button button-ghost" href={back.startsWith("/") && !back.startsWith("//") ? back : "/"}>
              Back to where you were
            </a>
          </p>
        ) : null}
      </div>
    </section>
  );
}
