import { useActionData } from "react-router";
import { NewsletterForm } from "~/features/newsletter/components/newsletter-form";
import { newsletterAction } from "~/features/newsletter/newsletter-action.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/about";

export const handle = { page: "about" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "About us", description: "Who we are.", path: "/about" });

export async function action({ request, context }: Route.ActionArgs) {
  return newsletterAction(request, context);
}

export default function About() {
  const reply = useActionData<typeof action>();
  return (
    <section className="section">
      <div className="container">
        <h1>About</h1>
        <NewsletterForm variant="about" source="about" action="/about" serverReply={reply} />
      </div>
    </section>
  );
}
