import { site } from "~/lib/core/site";
import { retentionRules } from "./retention.server";

/**
 * What the privacy page says, from configuration: the controller (PRIVACY_CONTROLLER and
 * PRIVACY_CONTACT, else the site's name and contact address), the processors (MAIL_PROVIDER names
 * the mail provider) and the retention rules with their configured periods.
 */
export function privacyNotice(vars: Record<string, string | undefined> = process.env) {
  const clean = (v: string | undefined, fallback: string) => (v && v.trim() && v.trim().length <= 200 ? v.trim() : fallback);
  return {
    controller: clean(vars.PRIVACY_CONTROLLER, site.name),
    contact: clean(vars.PRIVACY_CONTACT, site.contactEmail),
    city: site.city,
    processors: [
      { name: "Safaricom PLC (M-Pesa)", why: "takes your payments; sees your phone number and the amount, and tells us your name as M-Pesa holds it" },
      { name: clean(vars.MAIL_PROVIDER, "Our mail provider"), why: "delivers the emails we send you; sees your email address and the message" },
    ],
    rules: retentionRules(vars).map((r) => ({ key: r.key, what: r.what, days: r.days, after: r.after })),
  };
}
