/**
 * Staff work in Nairobi: times are shown in East Africa Time (UTC+3 all year), the same on the
 * server and in the browser. Times are stored as ISO-8601 UTC text.
 *
 * A missing date (null, undefined, "") or one that cannot be read gives "": a screen shows
 * nothing rather than a machine date or "Invalid Date".
 */
const dateTime = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Africa/Nairobi",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

type Stamp = string | null | undefined;

/** '2026-11-21T11:05:00Z' -> '21 Nov 2026, 14:05': for tables whose heading names the zone. */
export function formatNairobiTime(iso: Stamp): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : dateTime.format(d);
}

/** '2025-11-12T16:42:10Z' -> '12 Nov at 19:42' (no year): a supporter's own recent payment. */
export function formatNairobiDayAt(iso: Stamp): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const parts = Object.fromEntries(dateTime.formatToParts(d).map((p) => [p.type, p.value]));
  return `${parts.day} ${parts.month} at ${parts.hour}:${parts.minute}`;
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

const dayInWords = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Nairobi", day: "numeric", month: "long", year: "numeric" });

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
  return Number.isNaN(d.getTime()) ? "" : dayInWords.format(d);
}

const clock = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Nairobi", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** '2026-11-21T16:42:00Z' -> '19:42' (Nairobi clock time): for the door, where the day is today. */
export function formatNairobiClock(iso: Stamp): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : clock.format(d);
}
