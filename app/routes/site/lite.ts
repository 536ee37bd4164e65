import { LITE_COOKIE, LITE_COOKIE_MAX_AGE } from "~/lib/core/data-saver";
import { safeReturnPath } from "~/lib/core/return-path";
import type { Route } from "./+types/lite";

/**
 * GET /lite?on=1|0&to=/path: stores the visitor's choice of Lite mode in a cookie and sends them
 * back to the page they were on (a path on this site only). A link, so it works without
 * JavaScript; `rel="nofollow"` keeps crawlers off it.
 */
export function loader({ request, url }: Route.LoaderArgs) {
  const on = url.searchParams.get("on") === "1";
  const secure = url.protocol === "https:" ? "; Secure" : "";
  return new Response(null, {
    status: 303,
    headers: {
      Location: safeReturnPath(url.searchParams.get("to")),
      "Set-Cookie": `${LITE_COOKIE}=${on ? 1 : 0}; Path=/; Max-Age=${LITE_COOKIE_MAX_AGE}; SameSite=Lax; HttpOnly${secure}`,
      "Cache-Control": "no-store",
    },
  });
}
