import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/ministry";

export const handle = { page: "ministry" };

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Ministry", description: "Ministry", path: "/ministry" });

export default function Ministry() {
  return (
    <section className="section">
      <div className="container">
        <h1>Ministry</h1>
      </div>
    </section>
  );
}
