import { z } from "zod";
import {
  EMAIL_MAX_LENGTH,
  EMAIL_MESSAGE,
  EMAIL_PATTERN,
  EMAIL_TOO_LONG_MESSAGE,
  NAME_MAX_LENGTH,
  NAME_MESSAGE,
  nameTooLongMessage,
  NOTES_MAX_LENGTH,
  NOTES_TOO_LONG_MESSAGE,
  PHONE_MAX_LENGTH,
  PHONE_MESSAGE,
  PHONE_PATTERN,
  PHONE_TOO_LONG_MESSAGE,
  SOURCE_PATTERN,
} from "./rules";

// The schemas' shared fields, built from the rules and words in rules.ts (which the browser's
// checks use too).

/** A required email address: trimmed, checked against the spec's pattern, stored lower-case. */
export const emailField = ({ tooLong = EMAIL_TOO_LONG_MESSAGE }: { tooLong?: string } = {}) =>
  z
    .string({ error: EMAIL_MESSAGE })
    .trim()
    .max(EMAIL_MAX_LENGTH, tooLong)
    .regex(EMAIL_PATTERN, EMAIL_MESSAGE)
    .transform((e) => e.toLowerCase());

export const EmailField = emailField();

/** A required full name. */
export const fullNameField = (max = NAME_MAX_LENGTH) =>
  z.string({ error: NAME_MESSAGE }).trim().min(1, NAME_MESSAGE).max(max, nameTooLongMessage(max));

/** Source labels name the page or place a sign-up came from (e.g. footer:/about, blogs:index). */
export const SourceField = z
  .string()
  .trim()
  .max(80, "Source label is too long.")
  .regex(SOURCE_PATTERN, "Source label may use letters, digits and . _ : / - only.");

/** An optional phone number: digits, spaces, +, dashes and brackets. */
export const PhoneField = z
  .string()
  .trim()
  .max(PHONE_MAX_LENGTH, PHONE_TOO_LONG_MESSAGE)
  .regex(PHONE_PATTERN, PHONE_MESSAGE)
  .default("");

/** Optional notes from the person ordering. */
export const NotesField = z.string().trim().max(NOTES_MAX_LENGTH, NOTES_TOO_LONG_MESSAGE).default("");
