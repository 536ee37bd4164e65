import type { MetaDescriptor } from "react-router";
import { pageMeta } from "~/lib/core/meta";

/** The staff home, where the session forms post. */
export const STAFF_HOME = "/admin";

/**
 * What a staff screen declares in its route `handle`: its page-view name, its title (the
 * page's h1 and <title>, unless `heading` differs), its description, and `signIn` on the one
 * screen that renders the sign-in form itself (/admin, where the form's answer lands).
 */
export type StaffHandle = {
  page: string;
  title: string;
  heading?: string;
  description: string;
  signIn?: boolean;
};

/** Every staff screen, in the order of the staff menu. */
export const STAFF_SCREENS = [
  { to: STAFF_HOME, label: "Overview" },
  { to: "/admin/badge-orders", label: "Badge orders" },
  { to: "/admin/merch-orders", label: "Merch orders" },
  { to: "/admin/payments", label: "M-Pesa payments" },
  // A whole page load: the camera is allowed by that document's own Permissions-Policy header.
  { to: "/admin/check-in", label: "Door check-in", reloadDocument: true },
  { to: "/admin/event", label: "Event" },
  { to: "/admin/team-badges", label: "Team badges" },
  { to: "/merchandise/admin", label: "Merchandise editor" },
  { to: "/blogs/admin", label: "Blog editor" },
  { to: "/admin/activity", label: "Activity & analytics" },
  { to: "/admin/engagement", label: "Engagement" },
  { to: "/admin/people", label: "People's data" },
  { to: "/admin/imports", label: "Old site imports" },
] as const;

type MetaArgs = { matches: Parameters<typeof pageMeta>[0]; location: { pathname: string } };

/** A staff screen's <title> and description; never indexed. */
export function staffMeta({ matches, location }: MetaArgs, handle: StaffHandle): MetaDescriptor[] {
  return pageMeta(matches, { title: handle.title, description: handle.description, path: location.pathname, noindex: true });
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** 'N wrong admin keys in the last 24 hours from M addresses' */
export function wrongKeysText(s: { keys: number; addresses: number }) {
  return `${plural(s.keys, "wrong admin key", "wrong admin keys")} in the last 24 hours from ${plural(s.addresses, "address", "addresses")}`;
}
