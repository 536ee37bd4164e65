import { redirect } from "react-router";
import type { Route } from "./+types/merch-redirect";

/** The old short paths: /merch and /merch/admin move for good to /merchandise. */
export function loader({ request, url }: Route.LoaderArgs) {
  const target = url.pathname.replace(/^\/merch(?=\/|$)/, "/merchandise").replace(/\/+$/, "");
  return redirect(target + url.search, 301);
}
