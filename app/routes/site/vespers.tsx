import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/vespers";

export const handle = { page: "vespers" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Vespers", description: "Vespers", path: "/vespers" });

export default function Vespers() {
  return (
    <section className="section">
      <div className="container">
        <h1>Vespers</h1>
      </div>
    </section>
  );
}
