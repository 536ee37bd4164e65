import { z } from "zod";

/** The parameters of GET /api/analytics.php and of the /admin/activity controls (spec sections 5, 7, 9). */

import { REPORT_MODES, SINCE_DAYS, WINDOW_MINUTES } from "./reports";

export { REPORT_MODES, SINCE_DAYS, WINDOW_MINUTES };
export type { ReportMode } from "./reports";

export const WINDOW_MESSAGE = `Window must be a whole number of minutes from ${WINDOW_MINUTES.min} to ${WINDOW_MINUTES.max}.`;
export const SINCE_MESSAGE = "Since must be a whole number of days, 0 or more (0 means all time).";
export const UNIQUE_MESSAGE = "unique must be 1 or 0.";
export const MODE_MESSAGE = `Unknown mode. Use ${REPORT_MODES.join(", ")}.`;

/** A field left empty counts as not given, so its default applies (a bare `since=` is not 0). */
const blank = (v: unknown) => (v === "" || v === null ? undefined : v);

export const WindowSchema = z.preprocess(
  blank,
  z.coerce
    .number({ error: WINDOW_MESSAGE })
    .int(WINDOW_MESSAGE)
    .min(WINDOW_MINUTES.min, WINDOW_MESSAGE)
    .max(WINDOW_MINUTES.max, WINDOW_MESSAGE)
    .default(WINDOW_MINUTES.default),
);

export const SinceSchema = z.preprocess(
  blank,
  z.coerce
    .number({ error: SINCE_MESSAGE })
    .int(SINCE_MESSAGE)
    .min(SINCE_DAYS.min, SINCE_MESSAGE)
    .max(SINCE_DAYS.max, SINCE_MESSAGE)
    .default(SINCE_DAYS.default),
);

export const UniqueSchema = z.preprocess(
  blank,
  z
    .enum(["1", "0", "true", "false", "on", "off"], { error: UNIQUE_MESSAGE })
    .default("0")
    .transform((v) => v === "1" || v === "true" || v === "on"),
);

export const AnalyticsQuerySchema = z.object({
  mode: z.enum(REPORT_MODES, { error: MODE_MESSAGE }),
  window: WindowSchema,
  since: SinceSchema,
  unique: UniqueSchema,
});
export type AnalyticsQuery = z.output<typeof AnalyticsQuerySchema>;

/** The first value of each query parameter. */
export const queryValues = (params: URLSearchParams): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in out)) out[k] = v;
  return out;
};
