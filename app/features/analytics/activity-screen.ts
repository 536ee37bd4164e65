import { SINCE_DAYS, WINDOW_MINUTES } from "./reports";
import { dayWithWeekdayUtc, groupDigits, shortDayUtc } from "~/lib/core/plain-format";

/** Client-safe pieces of the staff screen /admin/activity: its URL state, words and formats. */

export const ACTIVITY_PATH = "/admin/activity";
export const ACTIVITY_LIMIT = 200;
export const CHART_DAYS = 30;

export type ActivityParams = { since: number; unique: boolean; window: number; type: string };
export const DEFAULT_PARAMS: ActivityParams = {
  since: SINCE_DAYS.default,
  unique: false,
  window: WINDOW_MINUTES.default,
  type: "",
};

/** The query of the screen's address: only what differs from the defaults. */
export function activitySearch(p: ActivityParams): Record<string, string> {
  const out: Record<string, string> = {};
  if (p.since !== DEFAULT_PARAMS.since) out.since = String(p.since);
  if (p.unique) out.unique = "1";
  if (p.window !== DEFAULT_PARAMS.window) out.window = String(p.window);
  if (p.type) out.type = p.type;
  return out;
}

export function activityHref(p: ActivityParams) {
  const q = new URLSearchParams(activitySearch(p)).toString();
  return q ? `${ACTIVITY_PATH}?${q}` : ACTIVITY_PATH;
}

export const sinceLabel = (days: number) =>
  days === 0 ? "all time" : days === 1 ? "the last day" : `the last ${groupDigits(days)} days`;

export const formatCount = groupDigits;

/** '2026-11-21' -> '21 Nov' (a UTC day, as the chart counts them). */
export const formatDay = (day: string) => shortDayUtc(new Date(`${day}T00:00:00Z`));
/** '2026-11-21' -> 'Sat, 21 Nov 2026'. */
export const formatDayLong = (day: string) => dayWithWeekdayUtc(new Date(`${day}T00:00:00Z`));

/** A round number at or above `max` for a chart's scale: 1, 2 or 5 times a power of ten. */
export function niceCeiling(max: number) {
  if (max <= 5) return 5;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}
