import { useActionData } from "react-router";
import { HeroForm } from "~/features/applications/components/hero-form";
import { heroAction } from "~/features/applications/application-actions.server";
import { pageMeta } from "~/lib/meta";
import { site } from "~/lib/site";
import type { Route } from "./+types/home";

export const handle = { page: "home" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: site.name, description: `${site.name}: ${site.tagline}.`, path: "/" });

export async function action({ request, context }: Route.ActionArgs) {
  return heroAction(request, context);
}

export default function Home() {
  const reply = useActionData<typeof action>();
  return (
    <section className="hero">
      <div className="container">
        <h1>{site.name}</h1>
        <HeroForm serverReply={reply} />
      </div>
    </section>
  );
}
