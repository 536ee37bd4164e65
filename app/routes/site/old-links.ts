import { redirect } from "react-router";
import type { Route } from "./+types/old-links";

/**
 * The old site's addresses that have no page of their own here, each moved for good to the
 * nearest one: the run and donation pages to the event, the run's legal pages (linked from its
 * emails) to the privacy page, the gratitude wall to vespers, the run's staff screens to the
 * staff home, and the old single-page app's /index.html to the home page.
 */
export const OLD_LINKS: Record<string, string> = {
  "/index.html": "/",
  "/vespers/gratitude": "/vespers",
  "/run": "/event",
  "/run/register": "/event",
  "/run/promo-confirmation": "/event",
  "/run/payment-status": "/event",
  "/donate": "/",
  "/donate/status": "/",
  "/admin/run-registrations": "/admin",
  "/admin/run-ipay": "/admin",
  "/docs/privacy-policy.html": "/privacy",
  "/docs/terms-of-participation.html": "/privacy",
  "/docs/rulebook.html": "/privacy",
  "/docs/disclaimer.html": "/privacy",
};

export function loader({ request, url }: Route.LoaderArgs) {
  const path = url.pathname.replace(/\/+$/, "") || "/";
  // Query strings (tracking, payment ids) are not carried: the pages here read none of them.
  return redirect(OLD_LINKS[path] ?? "/", 301);
}
