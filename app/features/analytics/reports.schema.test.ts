import { describe, expect, it } from "vitest";
import { activityHref, DEFAULT_PARAMS, niceCeiling, sinceLabel } from "./activity-screen";
import { readActivityParams } from "./activity-screen.server";
import { AnalyticsQuerySchema, MODE_MESSAGE, SINCE_MESSAGE, WINDOW_MESSAGE } from "./reports.schema";

const parse = (q: Record<string, string>) => AnalyticsQuerySchema.safeParse(q);
const message = (q: Record<string, string>) => {
  const r = parse(q);
  return r.success ? null : r.error.issues[0]?.message;
};

describe("AnalyticsQuerySchema", () => {
  it("defaults: window 5 minutes, since 30 days, unique off; empty values count as not given", () => {
    expect(parse({ mode: "active_now" }).data).toEqual({ mode: "active_now", window: 5, since: 30, unique: false });
    expect(parse({ mode: "events", window: "", since: "", unique: "" }).data).toMatchObject({ window: 5, since: 30, unique: false });
  });

  it.each(["1", "5", "1440", "0060"])("accepts window=%s", (w) => {
    expect(parse({ mode: "active_now", window: w }).success).toBe(true);
  });

  it.each(["0", "1441", "-1", "1.5", "abc", "1e9"])("refuses window=%s with one sentence", (w) => {
    expect(message({ mode: "active_now", window: w })).toBe(WINDOW_MESSAGE);
  });

  it("since: 0 is all time; negative, fractional or words are refused", () => {
    expect(parse({ mode: "page_views", since: "0" }).data?.since).toBe(0);
    expect(parse({ mode: "page_views", since: "365" }).data?.since).toBe(365);
    for (const s of ["-1", "2.5", "x", "36501"]) expect(message({ mode: "page_views", since: s })).toBe(SINCE_MESSAGE);
  });

  it("unique: 1/true/on turn it on, 0/false/off off, anything else is refused", () => {
    for (const u of ["1", "true", "on"]) expect(parse({ mode: "blog_views", unique: u }).data?.unique).toBe(true);
    for (const u of ["0", "false", "off"]) expect(parse({ mode: "blog_views", unique: u }).data?.unique).toBe(false);
    expect(parse({ mode: "blog_views", unique: "yes please" }).success).toBe(false);
  });

  it("an unknown or missing mode names the modes there are", () => {
    expect(message({ mode: "visitors" })).toBe(MODE_MESSAGE);
    expect(message({})).toBe(MODE_MESSAGE);
    expect(MODE_MESSAGE).toBe("Unknown mode. Use active_now, blog_views, page_views, events.");
  });
});

describe("the /admin/activity address", () => {
  it("writes only what differs from the defaults", () => {
    expect(activityHref(DEFAULT_PARAMS)).toBe("/admin/activity");
    expect(activityHref({ since: 0, unique: true, window: 15, type: "polls.ensure" })).toBe(
      "/admin/activity?since=0&unique=1&window=15&type=polls.ensure",
    );
  });

  it("reads its controls, falling back to a default with the reason for each bad one", () => {
    const { params, errors } = readActivityParams(new URLSearchParams("since=7&unique=1&window=2000&type=bad%20%3Ctype%3E"));
    expect(params).toEqual({ since: 7, unique: true, window: 5, type: "" });
    expect(errors).toEqual({ window: WINDOW_MESSAGE, type: "That activity type has characters that are not allowed." });
    expect(readActivityParams(new URLSearchParams("since=")).params).toEqual(DEFAULT_PARAMS);
  });

  it("says the period in words and rounds a chart's scale up", () => {
    expect([0, 1, 30].map(sinceLabel)).toEqual(["all time", "the last day", "the last 30 days"]);
    expect([0, 3, 7, 12, 99, 101, 240, 2600].map(niceCeiling)).toEqual([5, 5, 10, 20, 100, 200, 250, 5000]);
  });
});
