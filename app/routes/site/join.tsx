import { useActionData } from "react-router";
import { JoinForm } from "~/features/applications/components/join-form";
import { joinAction } from "~/features/applications/application-actions.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/join";

export const handle = { page: "join" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Join a team", description: "Apply to volunteer.", path: "/join" });

export async function action({ request, context }: Route.ActionArgs) {
  return joinAction(request, context);
}

export default function Join() {
  const reply = useActionData<typeof action>();
  return (
    <section className="section">
      <div className="container narrow">
        <h1>Join a team</h1>
        <JoinForm reply={reply} />
      </div>
    </section>
  );
}
