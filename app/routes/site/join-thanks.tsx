import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/join-thanks";

export const handle = { page: "join.thanks" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "JoinThanks", description: "JoinThanks", path: "/join/thanks" });

export default function JoinThanks() {
  return (
    <section className="section">
      <div className="container">
        <h1>JoinThanks</h1>
      </div>
    </section>
  );
}
