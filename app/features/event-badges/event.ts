import { formatDateInWords, nairobiInstant } from "~/lib/core/nairobi-time";
import { TIERS, type Tier } from "./tiers";

/**
 * The evening the badges are for: one record staff edit on /admin/event (it was fixed in code).
 * The poster and badge, the emails, the goal bar, the day-before reminders and reconciliation's
 * 'paid before sales opened' rule all read it. Dates are Nairobi calendar days (YYYY-MM-DD),
 * the time Nairobi clock time (HH:MM). No zod here: the public pages that read it stay free of
 * it (its set-up runs `new Function`, which their CSP refuses); the form's schema is in event.schema.ts.
 */
export type EventRecord = {
  title: string;
  date: string;
  time: string | null;
  venue: string;
  salesOpen: string | null;
  raiseTarget: number;
  tierGoals: Record<Tier["key"], number>;
  updatedAt?: string;
};

/** What the record holds until staff change it (the first concert's figures). */
export const DEFAULT_EVENT: EventRecord = {
  title: "Street Vespers Fundraising Concert",
  date: "2025-11-23",
  time: null,
  venue: "Nairobi",
  salesOpen: null,
  raiseTarget: 468_500,
  tierGoals: Object.fromEntries(TIERS.map((t) => [t.key, t.goal])) as Record<Tier["key"], number>,
};

/** '23 November 2025'. */
export const eventDateText = (e: EventRecord) => formatDateInWords(e.date);

/** '23 November 2025 at 18:00' (the time only when announced). */
export const eventWhenText = (e: EventRecord) => `${eventDateText(e)}${e.time ? ` at ${e.time}` : ""}`;

/** A tier's target for this event. */
export const goalOf = (e: EventRecord, key: Tier["key"]) => e.tierGoals[key] ?? TIERS.find((t) => t.key === key)?.goal ?? 0;

/** When ticket sales opened, as an instant (midnight in Nairobi), or null when not set. */
export const salesOpenInstant = (e: EventRecord) => (e.salesOpen ? nairobiInstant(e.salesOpen).toISOString() : null);
