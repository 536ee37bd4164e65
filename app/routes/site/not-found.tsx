import { data } from "react-router";

// An unknown address has nothing to enhance (app/lib/core/hydration.ts).
export const handle = { hydrate: false };

export function loader() {
  throw data("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
