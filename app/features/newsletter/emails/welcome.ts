import { site } from "~/lib/core/site";
import { renderEmail } from "~/lib/mail/email-layout";

export function welcomeEmail(opts: { unsubscribeUrl: string; siteUrl: string }) {
  return renderEmail({
    subject: `Welcome to ${site.name} updates`,
    heading: "Thank you for subscribing",
    paragraphs: [
      `You are now on the ${site.name} update list. We write occasionally: street vespers evenings, campus missions, volunteer openings and stories from the streets of ${site.city}.`,
      "If you did not ask for this, you can ignore this message or unsubscribe with one click below.",
    ],
    cta: { label: "Visit the site", url: opts.siteUrl },
    footer: `Unsubscribe: ${opts.unsubscribeUrl}`,
    footerLink: { label: "Unsubscribe", url: opts.unsubscribeUrl },
  });
}
