import type { Generated } from "kysely";

export interface AnalyticsEventsTable {
  id: Generated<number>;
  ts: string;
  type: string;
  name: string;
  path: string;
  ref: string;
  src: string;
  meta: string;
  cid: string;
}

/** Views per UTC day, type and name; `uniques` is set when the day's raw events are rolled up. */
export interface AnalyticsDailyTable {
  type: string;
  day: string;
  name: string;
  total: Generated<number>;
  site: Generated<number>;
  share: Generated<number>;
  uniques: Generated<number>;
  last_seen: string;
}

export interface AnalyticsDailyRefsTable {
  day: string;
  host: string;
  total: Generated<number>;
}

/** When each client was last seen per type and name, over the raw (not yet rolled-up) period. */
export interface AnalyticsClientsTable {
  type: string;
  name: string;
  cid: string;
  last_seen: string;
}

export interface AnalyticsRollupStateTable {
  id: number;
  summarized_id: Generated<number>;
  rolled_before: Generated<string>;
  rolling_day: string | null;
}

export interface AnalyticsTables {
  analytics_events: AnalyticsEventsTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_daily_refs: AnalyticsDailyRefsTable;
  analytics_clients: AnalyticsClientsTable;
  analytics_rollup_state: AnalyticsRollupStateTable;
}
