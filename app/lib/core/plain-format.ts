/**
 * Numbers and dates written out by hand rather than by `Intl`: the same text on the server and
 * in every browser (no hydration mismatch between two ICU versions), and nothing for a phone to
 * load while the page starts. A browser's first `Intl` formatter (`toLocaleString`, an
 * `Intl.DateTimeFormat` with a time zone) loads locale and zone data on the main thread: on the
 * simulated budget phone that was 80-130 ms of the page's start-up (docs/decisions/first-paint-and-scripts.md).
 *
 * The words are those `en-GB` gives (with its 'Sept'), so the text is what it was.
 */

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

export const MONTHS_SHORT = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"] as const;

/** 1234567 -> '1,234,567'; -1234.5 -> '-1,234.5' (at most three decimals, as en-KE writes them). */
export function groupDigits(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? "-" : "";
  const [whole, fraction = ""] = Math.abs(n).toFixed(3).split(".");
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const decimals = fraction.replace(/0+$/, "");
  const text = decimals ? `${grouped}.${decimals}` : grouped;
  return text === "0" ? "0" : sign + text;
}

/** An amount with its currency: 'KES 1,500'. */
export const formatAmount = (amount: number, currency = "KES") => `${currency} ${groupDigits(amount)}`;

const two = (n: number) => String(n).padStart(2, "0");

/** The calendar parts of `d` read in UTC (shift the instant first for another fixed zone). */
export function utcParts(d: Date) {
  return {
    day: d.getUTCDate(),
    month: d.getUTCMonth(),
    year: d.getUTCFullYear(),
    clock: `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`,
  };
}

/** '17 October 2025' from the UTC calendar day of `d`. */
export function dayInWordsUtc(d: Date): string {
  const p = utcParts(d);
  return `${p.day} ${MONTHS[p.month]} ${p.year}`;
}

export const WEEKDAYS_SHORT = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

/** '21 Nov' from the UTC calendar day of `d`. */
export function shortDayUtc(d: Date): string {
  const p = utcParts(d);
  return `${p.day} ${MONTHS_SHORT[p.month]}`;
}

/** 'Sat, 21 Nov 2026' from the UTC calendar day of `d`. */
export function dayWithWeekdayUtc(d: Date): string {
  const p = utcParts(d);
  return `${WEEKDAYS_SHORT[d.getUTCDay()]}, ${p.day} ${MONTHS_SHORT[p.month]} ${p.year}`;
}
