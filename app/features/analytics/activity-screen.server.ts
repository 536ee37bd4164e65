import { z } from "zod";
import { listActivity } from "~/features/activity/activity.server";
import type { ActivityItem } from "~/features/activity/activity";
import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { NAME_PATTERN } from "./analytics.schema";
import { ACTIVITY_LIMIT, CHART_DAYS, DEFAULT_PARAMS, type ActivityParams } from "./activity-screen";
import { SinceSchema, UniqueSchema, WindowSchema } from "./reports.schema";
import {
  activeNow,
  activityTypes,
  dailyPageViews,
  tallyByName,
  topReferrers,
  type Tally,
} from "./reports.server";
import type { DayCount, Referrer } from "./reports";

const TypeSchema = z.preprocess(
  (v) => (v === null || v === "" ? undefined : v),
  z.string().max(64, "That activity type is too long.").regex(NAME_PATTERN, "That activity type has characters that are not allowed.").default(""),
);

type ParamErrors = Partial<Record<keyof ActivityParams, string>>;

/** Reads the screen's controls; a bad value falls back to its default and says why. */
export function readActivityParams(params: URLSearchParams): { params: ActivityParams; errors: ParamErrors } {
  const out: ActivityParams = { ...DEFAULT_PARAMS };
  const errors: ParamErrors = {};
  const fields = { since: SinceSchema, unique: UniqueSchema, window: WindowSchema, type: TypeSchema } as const;
  for (const key of Object.keys(fields) as (keyof typeof fields)[]) {
    const r = fields[key].safeParse(params.get(key));
    if (r.success) (out as Record<string, unknown>)[key] = r.data;
    else errors[key] = r.error.issues[0]?.message ?? "That value could not be read.";
  }
  return { params: out, errors };
}

/** A block's data, or null when its query failed (spec section 8: analytics failures are silent). */
async function quietly<T>(label: string, work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (e) {
    console.error(`[admin/activity] ${label} failed`, e);
    return null;
  }
}

type Row = Pick<Tally, "name" | "total" | "unique" | "lastSeen"> & Partial<Pick<Tally, "site" | "share">>;
const slim = ({ name, total, unique, lastSeen }: Tally): Row => ({ name, total, unique, lastSeen });

export type ActivityScreenData = {
  params: ActivityParams;
  errors: ParamErrors;
  activeNow: number | null;
  chart: DayCount[] | null;
  referrers: Referrer[] | null;
  blogViews: Row[] | null;
  pages: Row[] | null;
  events: Row[] | null;
  activity: ActivityItem[] | null;
  activityTypes: string[];
};

export async function loadActivityData(db: Db, params: ActivityParams, now = Date.now()) {
  const rankBy = params.unique ? ("unique" as const) : ("total" as const);
  const tally = (type: "page.view" | "event" | "blog.view") =>
    tallyByName(db, { type, sinceDays: params.since, rankBy, now });
  const ownHost = new URL(env().publicUrl).hostname;
  return {
    activeNow: await quietly("active now", () => activeNow(db, { windowMinutes: params.window, now })),
    chart: await quietly("daily page views", () => dailyPageViews(db, { days: CHART_DAYS, now })),
    referrers: await quietly("referrers", () => topReferrers(db, { sinceDays: params.since, now, exclude: [ownHost] })),
    blogViews: await quietly("blog views", () => tally("blog.view")),
    pages: await quietly("page views", async () => (await tally("page.view")).map(slim)),
    events: await quietly("events", async () => (await tally("event")).map(slim)),
    activity: await quietly("activity log", async () =>
      (await listActivity(db, { limit: ACTIVITY_LIMIT, type: params.type || undefined })).reverse(),
    ),
    activityTypes: (await quietly("activity types", () => activityTypes(db))) ?? [],
  };
}

/** The whole of /admin/activity as ?since=&unique=&window=&type= ask, for signed-in staff. */
export async function loadActivityScreen(db: Db, query: URLSearchParams) {
  const { params, errors } = readActivityParams(query);
  const data = await loadActivityData(db, params);
  return { params, errors, ...data } satisfies ActivityScreenData;
}
