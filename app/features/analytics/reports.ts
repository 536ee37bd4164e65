/** The report parameters' limits (spec sections 5 and 9), safe for the browser: no zod here. */
export const REPORT_MODES = ["active_now", "blog_views", "page_views", "events"] as const;
export type ReportMode = (typeof REPORT_MODES)[number];

export const WINDOW_MINUTES = { min: 1, max: 1440, default: 5 } as const;
export const SINCE_DAYS = { min: 0, max: 36_500, default: 30 } as const;

/** Page views on one UTC day (the activity screen's chart). */
export type DayCount = { day: string; views: number };

/** Page views from one referring host. */
export type Referrer = { host: string; views: number };
