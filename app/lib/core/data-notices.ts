// What each form that collects personal data tells the person, and the version of that wording.

/**
 * The notice and consent wording's version: kept with each subscription and application (with
 * when, and their `source`). Change it whenever the lines below change.
 */
export const CONSENT_VERSION = "2026-11-29";

/** The one line each form that collects personal data shows, above its button. */
export const DATA_NOTICES = {
  join: "We keep your application (name, email, phone, role and message) to answer it and place you in a team, for up to 2 years.",
  newsletter: "We keep your email address only to send the updates you asked for, until you unsubscribe (one click in every update).",
  order: "We keep your name, email, phone and portrait to make and send your badge; the portrait and phone go 90 days after the event.",
  checkout: "We keep your name, email and phone to fulfil your order; the phone goes 90 days after payment, the order stays for our accounts.",
} as const;

export const JOIN_CONSENT_LABEL =
  "I agree that this application, which shows my faith, is kept to answer it and place me in a team (explicit consent under the Data Protection Act, 2019).";
export const JOIN_CONSENT_MESSAGE = "Please tick the box to agree that we keep your application.";
