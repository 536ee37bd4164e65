import { isHttpUrl } from "~/lib/core/rules";
import type { Tier } from "./tiers";
import { MAX_NAME_LENGTH } from "../badge-art/text";

/** Client-safe words, rules and defaults of the /event/previews design surface. */
export const SAMPLE_NAME = "Amani Wanjiku";
export const NAME_MESSAGE = `Name must be at most ${MAX_NAME_LENGTH} characters.`;
export const SHARE_URL_MAX_LENGTH = 500;
export const SHARE_URL_MESSAGE = `Share URL must be an http(s) address of at most ${SHARE_URL_MAX_LENGTH} characters.`;
export const PORTRAIT_URL_MAX_LENGTH = 300;
export const PORTRAIT_URL_MESSAGE = "Portrait URL must be an image on this site.";
export const PORTRAIT_EXTENSIONS = [".png", ".jpg", ".jpeg", ".webp", ".avif", ".gif"] as const;

/** The poster's QR address: an http(s) URL of at most 500 characters. */
export const isShareUrl = (value: string) => value.length <= SHARE_URL_MAX_LENGTH && isHttpUrl(value);

/**
 * A portrait named by its path on this site with an image extension: the browser's first
 * look. The server then checks that the file really is there (site-image.server.ts).
 */
export function looksLikeSitePortrait(value: string): boolean {
  if (!/^\/[^/\\]/.test(value)) return false;
  const pathname = value.split(/[?#]/)[0]!.toLowerCase();
  return PORTRAIT_EXTENSIONS.some((ext) => pathname.endsWith(ext));
}

/** Spec section 3, 'Share URL': the event page with the badge campaign tags. */
export function eventShareUrl(origin: string, tierKey: Tier["key"]): string {
  return `${origin}/event?utm_source=share&utm_medium=badge&utm_campaign=event_${tierKey}`;
}
