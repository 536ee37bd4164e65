import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import type { TrackRow } from "./analytics.server";
import { runAnalyticsRollup } from "./rollup.server";

/**
 * The analytics' part of moving the old site in (app/features/legacy-import): the old
 * analytics.jsonl's events as raw events, which the roll-up then adds to the daily counts the
 * dashboards read (and rolls up the days past retention, as it does for this site's own).
 */
export async function importEvents(db: Db, rows: TrackRow[]) {
  for (let i = 0; i < rows.length; i += 200) await db.insertInto("analytics_events").values(rows.slice(i, i + 200)).execute();
}

/** Brings the daily counts up to date now, instead of at the server's next roll-up. */
export async function summariseImportedEvents(db: Db) {
  return runAnalyticsRollup(db, { retentionDays: env().analyticsRetentionDays });
}
