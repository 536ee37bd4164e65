import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/privacy";

export const handle = { page: "privacy" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Privacy", description: "Privacy", path: "/privacy" });

export default function Privacy() {
  return (
    <section className="section">
      <div className="container">
        <h1>Privacy</h1>
      </div>
    </section>
  );
}
