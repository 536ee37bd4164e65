import { site } from "~/lib/core/site";

/** The spec's words for each newsletter box (section 8). */
export const newsletterMessages = {
  footer: {
    success: "Subscribed! Check your inbox soon.",
    failure: `Could not subscribe. Email ${site.contactEmail}.`,
    pending: "Subscribing…",
  },
  about: {
    success: "Subscribed! We will email updates occasionally.",
    failure: `Could not subscribe automatically. Email ${site.contactEmail}.`,
    pending: "Subscribing…",
  },
  event: {
    success: "Thanks! You are now on the vespers update list.",
    failure: `Could not subscribe automatically. Please email ${site.contactEmail}.`,
    pending: "Subscribing…",
  },
  vespers: {
    success: "Thanks! We will email vespers stories and event details soon.",
    failure: `Could not subscribe automatically. Please email ${site.contactEmail}.`,
    pending: "Subscribing…",
  },
} as const;

export type NewsletterVariant = keyof typeof newsletterMessages;
