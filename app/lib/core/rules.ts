/**
 * The rules and words shared by the zod schemas (server) and the checks made in the browser.
 * No zod here: this file is part of the pages' JavaScript, and zod would add about 25 KB gzip.
 * Schemas build on these in `validation.ts`; client checks call the predicates directly.
 */

export const NAME_MESSAGE = "Please enter your full name.";
/** A contact form's full name (badge order, merch checkout); the join form allows 120. */
export const NAME_MAX_LENGTH = 80;
export const nameTooLongMessage = (max: number) => `Please keep the name under ${max} characters.`;

/** The spec's simple pattern: text, @, text, dot, text. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MESSAGE = "Please provide a valid email address.";
export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_TOO_LONG_MESSAGE = "That email address is too long.";

export const PHONE_MAX_LENGTH = 32;
export const PHONE_PATTERN = /^[0-9+()\-\s]*$/;
export const PHONE_TOO_LONG_MESSAGE = `Please enter a phone number of at most ${PHONE_MAX_LENGTH} characters.`;
export const PHONE_MESSAGE = "Please enter a phone number using digits, spaces and + only.";

export const NOTES_MAX_LENGTH = 1000;
export const NOTES_TOO_LONG_MESSAGE = "Please keep notes under 1,000 characters.";

/** Source labels name the page or place a sign-up came from (e.g. footer:/about, blogs:index). */
export const SOURCE_PATTERN = /^[A-Za-z0-9._:/-]*$/;

/** Lower-case letters, digits and single dashes: a post's or an item's address. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The same rule for an input's `pattern` attribute (which is anchored by the browser). */
export const SLUG_INPUT_PATTERN = SLUG_PATTERN.source.slice(1, -1);

const SITE_PATH = /^\/(?!\/)[A-Za-z0-9._~/%-]*$/;
const HTTPS_URL = /^https:\/\/[^\s"'<>]+$/;
/** An https address (never javascript:, data: or plain http). */
export const isHttpsUrl = (value: string) => HTTPS_URL.test(value);
/** An image staff may name: a path on this site (/images/...) or an https address. */
export const isImageAddress = (value: string) => value !== "" && (SITE_PATH.test(value) || HTTPS_URL.test(value));

/** An absolute http(s) address, as the URL parser reads it. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

export const isBlank = (text: string) => text.trim() === "";
export const isEmail = (text: string) => EMAIL_PATTERN.test(text.trim());

/** The client's check of a required full name: the message to show, or undefined. */
export const nameError = (text: string) => (isBlank(text) ? NAME_MESSAGE : undefined);
/** The client's check of a required email address: the message to show, or undefined. */
export const emailError = (text: string) => (isEmail(text) ? undefined : EMAIL_MESSAGE);

/** A form's field errors without the fields that passed. */
export function fieldErrors<K extends string>(checks: Record<K, string | null | undefined>): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [field, message] of Object.entries(checks) as Array<[K, string | null | undefined]>) {
    if (message) out[field] = message;
  }
  return out;
}
