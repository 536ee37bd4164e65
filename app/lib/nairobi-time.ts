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

/** '2026-11-21T11:05:00Z' -> '21 Nov 2026, 14:05 EAT': where nothing else says the zone. */
export function formatNairobiTimeEat(iso: Stamp): string {
  const text = formatNairobiTime(iso);
  return text ? `${text} EAT` : "";
}
