/**
 * Staff work in Nairobi: times are shown in East Africa Time (UTC+3 all year), the same on the
 * server and in the browser. Times are stored as ISO-8601 UTC text.
 *
 * A missing date (null, undefined, "") or one that cannot be read gives "": a screen shows
 * nothing rather than a machine date or "Invalid Date".
 */
import { dayInWordsUtc, MONTHS_SHORT, utcParts } from "./plain-format";

type Stamp = string | null | undefined;

const EAT_OFFSET_MS = 3 * 60 * 60 * 1000;

/** The Nairobi calendar day and clock of an instant (written by hand: app/lib/core/plain-format.ts). */
const nairobi = (d: Date) => utcParts(new Date(d.getTime() + EAT_OFFSET_MS));

/** A stamp read as an instant, or null when there is none or it cannot be read. */
function instant(iso: Stamp): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** '2026-11-21T11:05:00Z' -> '21 Nov 2026, 14:05': for tables whose heading names the zone. */
export function formatNairobiTime(iso: Stamp): string {
  const d = instant(iso);
  if (!d) return "";
  const p = nairobi(d);
  return `${p.day} ${MONTHS_SHORT[p.month]} ${p.year}, ${p.clock}`;
}

/** '2025-11-12T16:42:10Z' -> '12 Nov at 19:42' (no year): a supporter's own recent payment. */
export function formatNairobiDayAt(iso: Stamp): string {
  const d = instant(iso);
  if (!d) return "";
  const p = nairobi(d);
  return `${p.day} ${MONTHS_SHORT[p.month]} at ${p.clock}`;
}

/** '2026-11-21T11:05:00Z' -> '21 Nov 2026, 14:05 EAT': where nothing else says the zone. */
export function formatNairobiTimeEat(iso: Stamp): string {
  const text = formatNairobiTime(iso);
  return text ? `${text} EAT` : "";
}

/**
 * The instant a Nairobi calendar day (YYYY-MM-DD) reaches `time` (HH:MM Nairobi clock time,
 * midnight when not given): '2026-12-05' -> 2026-12-04T21:00:00Z. Unreadable text gives an
 * invalid Date, as `new Date` does.
 */
export const nairobiInstant = (date: string, time = "00:00") => new Date(`${date}T${time}:00+03:00`);

/**
 * A date in words, for people rather than machines (emails): '2025-10-17' or
 * '2025-10-17T09:00:00Z' -> '17 October 2025' (the Nairobi calendar day). A plain date is that
 * day; unreadable text gives "".
 */
export function formatDateInWords(value: Stamp): string {
  if (!value) return "";
  const plain = /^\d{4}-\d{2}-\d{2}$/.test(value);
  // A plain date is a calendar day: read it at noon in Nairobi so no zone moves it.
  const d = plain ? nairobiInstant(value, "12:00") : new Date(value);
  return Number.isNaN(d.getTime()) ? "" : dayInWordsUtc(new Date(d.getTime() + EAT_OFFSET_MS));
}

/** '2026-11-21T16:42:00Z' -> '19:42' (Nairobi clock time): for the door, where the day is today. */
export function formatNairobiClock(iso: Stamp): string {
  const d = instant(iso);
  return d ? nairobi(d).clock : "";
}
