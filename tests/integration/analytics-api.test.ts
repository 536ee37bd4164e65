import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushAnalytics, writeEvents, type TrackRow } from "~/features/analytics/analytics.server";
import { MODE_MESSAGE, SINCE_MESSAGE, WINDOW_MESSAGE } from "~/features/analytics/reports.schema";
import { runAnalyticsRollup } from "~/features/analytics/rollup.server";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import * as analyticsApi from "~/routes/api/analytics";
import * as trackApi from "~/routes/api/track";
import { args, get, jsonPost, readJson, type ApiError } from "../support/http";
import { freshApp } from "../support/reset";

const KEY = "test-admin-key-0123456789";
const ADMIN = { "X-Admin-Key": KEY };
const NOW = Date.parse("2026-06-10T12:00:00.000Z");
const MIN = 60_000;
const DAY = 86_400_000;
const at = (ms: number) => new Date(NOW - ms).toISOString();

let db: Db;

beforeEach(async () => {
  db = await freshApp({ ADMIN_KEY: KEY });
  // Only Date is faked: 'now' stays put while timers and the database work as usual.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

type Items<T> = { ok: true; items: T[] };
type BlogRow = { slug: string; total: number; unique: number; site: number; share: number; lastSeen: string };
type PageRow = { page: string; total: number; unique: number; lastSeen: string };
type EventRow = { name: string; total: number; unique: number; lastSeen: string };

async function call<T = Record<string, unknown>>(query: string, headers: Record<string, string> = ADMIN) {
  return readJson<T>(await analyticsApi.loader(args(get(`/api/analytics.php${query}`, headers))));
}

const pv = (ago: number, page: string, cid: string, ref = ""): TrackRow => ({
  ts: at(ago), type: "page.view", name: page, path: `/${page}`, ref, src: "", meta: "{}", cid,
});
const ev = (ago: number, name: string, cid: string): TrackRow => ({
  ts: at(ago), type: "event", name, path: "/", ref: "", src: "", meta: "{}", cid,
});
const bv = (ago: number, slug: string, cid: string, src: "site" | "share" = "site"): TrackRow => ({
  ts: at(ago), type: "blog.view", name: slug, path: "", ref: "", src, meta: "{}", cid,
});

describe("who may read analytics", () => {
  it("needs the admin key or a staff session; a wrong key is a 401 in JSON", async () => {
    const none = await call<ApiError>("?mode=active_now", {});
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ ok: false, error: "Admin key required." });
    expect((await call<ApiError>("?mode=active_now", { "X-Admin-Key": "wrong-key-0123456789" })).status).toBe(401);
    const cookie = (await createAdminSessionCookie(db, get("/admin"))).split(";")[0]!;
    expect((await call("?mode=active_now", { Cookie: cookie })).body).toEqual({ ok: true, total: 0 });
  });

  it("refuses another site's page with a 403, key or not", async () => {
    const r = await call<ApiError>("?mode=events", { ...ADMIN, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    expect(r.status).toBe(403);
  });

  it("answers GET only, in JSON", async () => {
    const res = await analyticsApi.action(args(jsonPost("/api/analytics.php?mode=events", {}, ADMIN)));
    const r = await readJson<ApiError>(res);
    expect(r.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET");
  });
});

describe("parameters", () => {
  it.each([
    ["", MODE_MESSAGE],
    ["?mode=visitors", MODE_MESSAGE],
    ["?mode=active_now&window=0", WINDOW_MESSAGE],
    ["?mode=active_now&window=1441", WINDOW_MESSAGE],
    ["?mode=active_now&window=2.5", WINDOW_MESSAGE],
    ["?mode=active_now&window=soon", WINDOW_MESSAGE],
    ["?mode=page_views&since=-1", SINCE_MESSAGE],
    ["?mode=blog_views&since=week", SINCE_MESSAGE],
    ["?mode=events&since=1.5", SINCE_MESSAGE],
    ["?mode=events&unique=maybe", "unique must be 1 or 0."],
  ])("%s is a 400: %s", async (query, error) => {
    const r = await call<ApiError>(query);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ ok: false, error });
  });

  it("accepts the edges: window 1 and 1440, since 0", async () => {
    for (const q of ["?mode=active_now&window=1", "?mode=active_now&window=1440", "?mode=page_views&since=0"]) {
      expect((await call(q)).status, q).toBe(200);
    }
  });
});

describe("mode=active_now", () => {
  beforeEach(async () => {
    await writeEvents(db, [
      pv(5 * MIN, "home", "edge-of-5"), // exactly 5 minutes ago: in
      pv(5 * MIN + 1, "home", "just-before-5"), // a millisecond earlier: out
      ev(2 * MIN, "cta.join", "edge-of-5"), // the same client again
      bv(30_000, "a-post", "reader-01"),
      pv(10_000, "home", ""), // no client id: not a visitor
      pv(1440 * MIN, "home", "a-day-ago"),
      pv(1440 * MIN + 1, "home", "too-long-ago"),
    ]);
  });

  it("counts distinct clients seen in the last 5 minutes by default, the edge included", async () => {
    expect((await call("?mode=active_now")).body).toEqual({ ok: true, total: 2 });
  });

  it("takes its window in minutes, up to a day", async () => {
    expect((await call("?mode=active_now&window=1")).body).toEqual({ ok: true, total: 1 });
    expect((await call("?mode=active_now&window=6")).body).toEqual({ ok: true, total: 3 });
    expect((await call("?mode=active_now&window=1440")).body).toEqual({ ok: true, total: 4 });
  });
});

describe("mode=blog_views, page_views and events", () => {
  beforeEach(async () => {
    await writeEvents(db, [
      bv(1 * MIN, "street-vespers", "reader-a", "site"),
      bv(2 * MIN, "street-vespers", "reader-a", "share"),
      bv(3 * MIN, "street-vespers", "reader-b", "share"),
      bv(2 * DAY, "campus-week", "reader-c"),
      bv(2 * DAY + MIN, "campus-week", "reader-d"),
      bv(2 * DAY + 2 * MIN, "campus-week", "reader-e"),
      bv(40 * DAY, "old-post", "reader-f"),
      pv(10 * MIN, "home", "visitor-1"),
      pv(11 * MIN, "home", "visitor-1"),
      pv(12 * MIN, "home", "visitor-2"),
      pv(13 * MIN, "home", "visitor-2"),
      pv(29 * DAY, "about", "visitor-3"),
      pv(31 * DAY, "about", "visitor-4"),
      pv(35 * DAY, "about", "visitor-5"),
      ev(20 * MIN, "cta.join", "visitor-1"),
      ev(3 * DAY, "badge.view", "visitor-2"),
    ]);
  });

  it("blog_views: slug, total, unique, site, share and last seen, for the last 30 days by default", async () => {
    const r = await call<Items<BlogRow>>("?mode=blog_views");
    expect(r.body).toEqual({
      ok: true,
      items: [
        { slug: "campus-week", total: 3, unique: 3, site: 3, share: 0, lastSeen: at(2 * DAY) },
        { slug: "street-vespers", total: 3, unique: 2, site: 1, share: 2, lastSeen: at(MIN) },
      ],
    });
  });

  it("since narrows it to whole days before now; since=0 is all time", async () => {
    expect((await call<Items<BlogRow>>("?mode=blog_views&since=1")).body.items.map((i) => i.slug)).toEqual(["street-vespers"]);
    const all = await call<Items<BlogRow>>("?mode=blog_views&since=0");
    expect(all.body.items.map((i) => [i.slug, i.total])).toEqual([
      ["campus-week", 3],
      ["street-vespers", 3],
      ["old-post", 1],
    ]);
  });

  it("unique=1 ranks by distinct clients instead of views", async () => {
    const r = await call<Items<PageRow>>("?mode=page_views&since=0&unique=1");
    expect(r.body.items).toEqual([
      { page: "about", total: 3, unique: 3, lastSeen: at(29 * DAY) },
      { page: "home", total: 4, unique: 2, lastSeen: at(10 * MIN) },
    ]);
    const byViews = await call<Items<PageRow>>("?mode=page_views&since=0");
    expect(byViews.body.items.map((i) => i.page)).toEqual(["home", "about"]);
  });

  it("page_views: page, total, unique and last seen", async () => {
    expect((await call<Items<PageRow>>("?mode=page_views")).body.items).toEqual([
      { page: "home", total: 4, unique: 2, lastSeen: at(10 * MIN) },
      { page: "about", total: 1, unique: 1, lastSeen: at(29 * DAY) },
    ]);
  });

  it("events: name, total, unique and last seen", async () => {
    expect((await call<Items<EventRow>>("?mode=events&since=2")).body.items).toEqual([
      { name: "cta.join", total: 1, unique: 1, lastSeen: at(20 * MIN) },
    ]);
    expect((await call<Items<EventRow>>("?mode=events")).body.items.map((i) => i.name)).toEqual(["badge.view", "cta.join"]);
  });
});

describe("tracking through /api/track.php", () => {
  const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
  const track = (body: unknown, ua: string, cid: string) =>
    trackApi.action(args(jsonPost("/api/track.php", body, { "user-agent": ua, "x-client-id": cid })));

  it("counts browsers and leaves crawlers out", async () => {
    expect((await readJson(await track({ type: "blog.view", slug: "street-vespers", src: "share" }, BROWSER, "browser-client-1"))).body).toEqual({ ok: true, counted: true });
    expect((await readJson(await track({ type: "event", name: "cta.join" }, BROWSER, "browser-client-1"))).body).toEqual({ ok: true, counted: true });
    const bot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    expect((await readJson(await track({ type: "blog.view", slug: "street-vespers" }, bot, "crawler-client"))).body).toEqual({ ok: true, counted: false });
    expect((await readJson(await track({ type: "event", name: "cta.join" }, "Bingbot/2.0 (+http://www.bing.com/bingbot.htm)", "crawler-2"))).body).toMatchObject({ counted: false });
    await flushAnalytics();

    expect((await call<Items<BlogRow>>("?mode=blog_views")).body.items).toEqual([
      { slug: "street-vespers", total: 1, unique: 1, site: 0, share: 1, lastSeen: new Date(NOW).toISOString() },
    ]);
    expect((await call<Items<EventRow>>("?mode=events")).body.items).toEqual([
      { name: "cta.join", total: 1, unique: 1, lastSeen: new Date(NOW).toISOString() },
    ]);
    expect((await call("?mode=active_now")).body).toEqual({ ok: true, total: 1 });
    // And no address is stored with them.
    const rows = await db.selectFrom("analytics_events").selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain("10.0.0.1");
  });
});

describe("the retention roll-up", () => {
  it("keeps every total, deletes the old raw events, and adds each rolled-up day's own uniques", async () => {
    await writeEvents(db, [
      // Rolled up (retention 90 days): two days, the same reader on both.
      bv(120 * DAY, "old-post", "reader-1"),
      bv(120 * DAY + MIN, "old-post", "reader-1", "share"),
      bv(110 * DAY, "old-post", "reader-1"),
      bv(110 * DAY + MIN, "old-post", "reader-2"),
      pv(100 * DAY, "home", "visitor-1", "https://www.google.com/search"),
      ev(95 * DAY, "cta.join", "visitor-1"),
      // Kept raw.
      bv(10 * DAY, "old-post", "reader-1"),
      pv(MIN, "home", "visitor-1"),
      pv(2 * MIN, "home", "visitor-2"),
      ev(MIN, "cta.join", "visitor-9"),
    ]);
    const before = {
      blog: await call<Items<BlogRow>>("?mode=blog_views&since=0"),
      pages: await call<Items<PageRow>>("?mode=page_views&since=0"),
      events: await call<Items<EventRow>>("?mode=events&since=0"),
      recent: await call<Items<BlogRow>>("?mode=blog_views&since=30"),
    };
    expect(before.blog.body.items).toEqual([{ slug: "old-post", total: 5, unique: 2, site: 4, share: 1, lastSeen: at(10 * DAY) }]);

    const result = await runAnalyticsRollup(db, { retentionDays: 90 });
    expect(result.deleted).toBe(6);
    expect(await db.selectFrom("analytics_events").select("id").execute()).toHaveLength(4);

    const after = {
      blog: await call<Items<BlogRow>>("?mode=blog_views&since=0"),
      pages: await call<Items<PageRow>>("?mode=page_views&since=0"),
      events: await call<Items<EventRow>>("?mode=events&since=0"),
      recent: await call<Items<BlogRow>>("?mode=blog_views&since=30"),
    };
    // Totals, splits and last seen do not move.
    const noUnique = <T extends { unique: number }>(items: T[]) => items.map(({ unique: _u, ...rest }) => rest);
    expect(noUnique(after.blog.body.items)).toEqual(noUnique(before.blog.body.items));
    expect(noUnique(after.pages.body.items)).toEqual(noUnique(before.pages.body.items));
    expect(noUnique(after.events.body.items)).toEqual(noUnique(before.events.body.items));
    // Inside the raw period nothing changes at all.
    expect(after.recent.body).toEqual(before.recent.body);
    // Across rolled-up days, each day adds its own distinct readers (1 + 2), plus the raw period's (1).
    expect(after.blog.body.items[0]!.unique).toBe(4);
    expect(after.pages.body.items).toEqual([{ page: "home", total: 3, unique: 3, lastSeen: at(MIN) }]);
    // Running it again changes nothing.
    await runAnalyticsRollup(db, { retentionDays: 90 });
    expect((await call<Items<BlogRow>>("?mode=blog_views&since=0")).body).toEqual(after.blog.body);
  });
});
