import type { Tier } from "../tiers";

/** Client-safe words and defaults of the /event/previews design surface. */
export const SAMPLE_NAME = "Amani Wanjiku";
export const SHARE_URL_MESSAGE = "Share URL must be an http(s) address of at most 500 characters.";
export const PORTRAIT_URL_MESSAGE = "Portrait URL must be an image on this site.";
export const PORTRAIT_EXTENSIONS = [".png", ".jpg", ".jpeg", ".webp", ".avif", ".gif"] as const;

/** Spec section 3, 'Share URL': the event page with the badge campaign tags. */
export function eventShareUrl(origin: string, tierKey: Tier["key"]): string {
  return `${origin}/event?utm_source=share&utm_medium=badge&utm_campaign=event_${tierKey}`;
}
