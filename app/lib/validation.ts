import { z } from "zod";

/** The spec's simple pattern: text, @, text, dot, text. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MESSAGE = "Please provide a valid email address.";

export const EmailField = z
  .string({ error: EMAIL_MESSAGE })
  .trim()
  .max(254, "That email address is too long.")
  .regex(EMAIL_PATTERN, EMAIL_MESSAGE)
  .transform((e) => e.toLowerCase());

/** Source labels name the page or place a sign-up came from (e.g. footer:/about, blogs:index). */
export const SourceField = z
  .string()
  .trim()
  .max(80, "Source label is too long.")
  .regex(/^[A-Za-z0-9._:/-]*$/, "Source label may use letters, digits and . _ : / - only.");

/** An optional phone number: digits, spaces, +, dashes and brackets. */
export const PhoneField = z
  .string()
  .trim()
  .max(32, "Please enter a phone number of at most 32 characters.")
  .regex(/^[0-9+()\-\s]*$/, "Please enter a phone number using digits, spaces and + only.")
  .default("");
