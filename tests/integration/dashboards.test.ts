import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  UNSAFE_withComponentProps as withComponentProps,
} from "react-router";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { recordActivity } from "~/features/activity/activity.server";
import { writeEvents, type TrackRow } from "~/features/analytics/analytics.server";
import { WINDOW_MESSAGE } from "~/features/analytics/reports.schema";
import { feedbackPollOptions } from "~/features/blog/blog";
import { createAdminSessionCookie } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import * as activityPage from "~/routes/admin/activity";
import * as engagementPage from "~/routes/admin/engagement";
import { ORIGIN, args, formPost, get, reply, testContext } from "../support/http";
import { freshApp } from "../support/reset";

const KEY = "test-admin-key-0123456789";
const STAFF = "10.0.0.42";
const NOW = Date.parse("2026-06-10T12:00:00.000Z");
const MIN = 60_000;
const DAY = 86_400_000;
const at = (ms: number) => new Date(NOW - ms).toISOString();
let db: Db;
let cookie: string;

beforeEach(async () => {
  db = await freshApp({ ADMIN_KEY: KEY });
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  cookie = (await createAdminSessionCookie(db, get("/admin"))).split(";")[0]!;
});
afterEach(() => {
  vi.useRealTimers();
});

const staff = (): Record<string, string> => ({ Cookie: cookie });
const row = (ago: number, type: string, name: string, cid: string, extra: Partial<TrackRow> = {}): TrackRow => ({
  ts: at(ago), type, name, path: "", ref: "", src: type === "blog.view" ? "site" : "", meta: "{}", cid, ...extra,
});

type RouteComponent = Parameters<typeof withComponentProps>[0];

/** Renders a route module on the server as a browser without JavaScript gets it. */
async function render(mod: { loader: unknown; action?: unknown; default: unknown; ErrorBoundary?: unknown }, path: string, request: Request) {
  const handler = createStaticHandler([
    {
      id: "screen",
      path,
      loader: mod.loader as never,
      action: mod.action as never,
      Component: withComponentProps(mod.default as RouteComponent) as ComponentType,
      ErrorBoundary: mod.ErrorBoundary ? (withComponentProps(mod.ErrorBoundary as RouteComponent) as ComponentType) : undefined,
      hasErrorBoundary: !!mod.ErrorBoundary,
    },
  ]);
  const context = await handler.query(request, { requestContext: testContext(STAFF) });
  if (context instanceof Response) throw new Error(`expected a page, got a ${context.status} Response`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return { status: context.statusCode, html: renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false })) };
}

/** The first `<name ...>` tag that has `attr` in it. */
const tagWith = (html: string, name: string, attr: string) =>
  [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, "g"))].map((m) => m[0]).find((t) => t.includes(attr)) ?? "";

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&#x27;|&rsquo;/g, "'").replace(/&amp;/g, "&").replace(/\s+/g, " ");

describe("/admin/activity", () => {
  const load = (query = "", headers = staff()) => activityPage.loader(args(get(`/admin/activity${query}`, headers)));

  it("signed out, the screen loads and shows nothing (the staff layout shows the sign-in form)", async () => {
    expect(await load("", {})).toBeNull();
    expect(await load("?since=0&window=15&unique=1", {})).toBeNull();
    const page = await render(activityPage, "/admin/activity", get("/admin/activity"));
    expect(text(page.html).trim()).toBe("");
  });

  it("shows active now, the period's tables, the 30-day chart and referrers from the tracked events", async () => {
    await writeEvents(db, [
      row(2 * MIN, "page.view", "home", "visitor-1", { ref: "https://www.google.com/search" }),
      row(3 * MIN, "page.view", "home", "visitor-2", { ref: "http://site.test/about" }),
      row(4 * MIN, "page.view", "about", "visitor-2"),
      row(10 * MIN, "blog.view", "street-vespers", "visitor-1", { src: "share" }),
      row(20 * MIN, "event", "cta.join", "visitor-1"),
      row(3 * DAY, "page.view", "vespers", "visitor-3"),
      row(45 * DAY, "page.view", "join", "visitor-4"),
    ]);
    const d = await load();
    if (!d) throw new Error("expected the screen");
    expect(d.params).toEqual({ since: 30, unique: false, window: 5, type: "" });
    expect(d.activeNow).toBe(2);
    expect(d.pages).toEqual([
      { name: "home", total: 2, unique: 2, lastSeen: at(2 * MIN) },
      { name: "about", total: 1, unique: 1, lastSeen: at(4 * MIN) },
      { name: "vespers", total: 1, unique: 1, lastSeen: at(3 * DAY) },
    ]);
    expect(d.blogViews).toEqual([{ name: "street-vespers", total: 1, unique: 1, site: 0, share: 1, lastSeen: at(10 * MIN) }]);
    expect(d.events).toEqual([{ name: "cta.join", total: 1, unique: 1, lastSeen: at(20 * MIN) }]);
    expect(d.referrers).toEqual([{ host: "www.google.com", views: 1 }]);
    expect(d.chart).toHaveLength(30);
    expect(d.chart!.at(-1)).toEqual({ day: "2026-06-10", views: 3 });
    expect(d.chart!.at(-4)).toEqual({ day: "2026-06-07", views: 1 });

    const all = await load("?since=0&unique=1&window=1440");
    if (!all) throw new Error("expected the screen");
    expect(all.pages!.map((p) => p.name)).toEqual(["home", "about", "join", "vespers"]);
    expect(all.activeNow).toBe(2);
  });

  it("keeps to the defaults when a control is out of range, and says which", async () => {
    const d = await load("?window=0&since=-3&type=%3Cscript%3E");
    if (!d) throw new Error("expected the screen");
    expect(d.params).toEqual({ since: 30, unique: false, window: 5, type: "" });
    expect(d.errors.window).toBe(WINDOW_MESSAGE);
    expect(d.errors.since).toMatch(/^Since must be/);
    expect(d.errors.type).toBeTruthy();
  });

  it("lists the newest 200 log entries first, filtered by type", async () => {
    for (let i = 0; i < 205; i++) {
      await recordActivity(db, { type: i % 5 === 0 ? "blogs.save" : "admin.sign_in", message: `entry ${i}`, actorIp: "10.9.9.9" });
    }
    const d = await load();
    if (!d) throw new Error("expected the screen");
    expect(d.activity).toHaveLength(200);
    expect(d.activity![0]!.message).toBe("entry 204");
    expect(d.activity!.at(-1)!.message).toBe("entry 5");
    expect(d.activityTypes).toEqual(["admin.sign_in", "blogs.save"]);
    const saves = await load("?type=blogs.save");
    if (!saves) throw new Error("expected the screen");
    expect(saves.activity!.map((a) => a.type)).toEqual(Array(41).fill("blogs.save"));
    expect(saves.activity![0]!.message).toBe("entry 200");
  });

  it("renders without JavaScript: GET forms, an SVG chart with a title and summary, and its numbers as a table", async () => {
    await writeEvents(db, [row(2 * MIN, "page.view", "home", "visitor-1"), row(DAY, "page.view", "home", "visitor-2")]);
    const { status, html } = await render(activityPage, "/admin/activity", get("/admin/activity?since=7", staff()));
    expect(status).toBe(200);
    const forms = [...html.matchAll(/<form\b[^>]*>/g)].map((m) => m[0]);
    // Period, active-now window and log filter: all GET to this screen.
    expect(forms.filter((f) => /method="get"/.test(f) && /action="\/admin\/activity"/.test(f))).toHaveLength(3);
    const svg = tagWith(html, "svg", 'role="img"');
    expect(svg).toMatch(/aria-labelledby="[^"]+-title"/);
    expect(svg).toMatch(/aria-describedby="[^"]+-desc"/);
    expect(html).toMatch(/<title id="[^"]+-title">Page views per day, last 30 days<\/title>/);
    expect(text(html)).toMatch(/2 page views from Tue, 12 May 2026 to Wed, 10 Jun 2026 \(UTC days\); the busiest day was/);
    expect(html).toContain("<summary>Show the numbers</summary>");
    expect(text(html)).toContain("Wed, 10 Jun 2026 1");
    expect(text(html)).toContain("Figures for the last 7 days");
    expect(html).toContain('name="since"');
    expect(tagWith(html, "input", 'name="window"')).toMatch(/min="1".*max="1440"/);
    expect(tagWith(html, "input", 'name="since"')).toContain('min="0"');
    // The other settings ride along as hidden fields.
    expect(html).toContain('<input type="hidden" name="since" value="7"/>');
  });

  it("a block whose query fails is left empty, as the spec's silent analytics failures", async () => {
    await writeEvents(db, [row(MIN, "page.view", "home", "visitor-1")]);
    await sql`drop table analytics_daily`.execute(db);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const d = await load();
    errors.mockRestore();
    if (!d) throw new Error("expected the screen");
    expect(d.pages).toBeNull();
    expect(d.chart).toBeNull();
    expect(d.activeNow).toBe(1);
    expect(d.activity).toEqual([]);
  });
});

describe("/admin/engagement", () => {
  const load = (headers = staff()) => engagementPage.loader(args(get("/admin/engagement", headers)));
  const post = (fields: Record<string, string>, headers = staff()) =>
    engagementPage.action(args(formPost("/admin/engagement", { intent: "ensure-poll", ...fields }, headers), STAFF));
  const optionsOf = async (id: string) =>
    (await db.selectFrom("poll_options").select("option").where("poll_id", "=", id).orderBy("sort").execute()).map((o) => o.option);

  it("signed out: the sign-in form, and a post is told 'Enter admin key'", async () => {
    expect(await load({})).toBeNull();
    const r = reply(await post({ id: "p1" }, {}));
    expect(r.status).toBe(401);
    expect(r.data).toEqual({ status: "error", message: "Enter admin key" });
    expect(await db.selectFrom("polls").select("id").execute()).toEqual([]);
  });

  it("shows reactions per post, polls with counts and the newest 100 subscribers", async () => {
    const now = new Date(NOW).toISOString();
    await db.insertInto("blog_reactions").values([
      { slug: "street-vespers", reaction: "like", cid: "c1", created_at: now },
      { slug: "street-vespers", reaction: "like", cid: "c2", created_at: now },
      { slug: "street-vespers", reaction: "pray", cid: "c1", created_at: now },
      { slug: "campus-week", reaction: "clap", cid: "c3", created_at: now },
    ]).execute();
    for (let i = 0; i < 105; i++) {
      await db.insertInto("subscribers").values({
        email: `s${i}@example.org`, status: i === 104 ? "unsubscribed" : "active", source: "footer:/", token: `t${i}`, created_at: now, updated_at: now, unsubscribed_at: null,
      }).execute();
    }
    await post({ id: "blog-x-poll", question: "", options: "Yes,No" });
    await db.insertInto("poll_votes").values({ poll_id: "blog-x-poll", option: "No", cid: "c1", created_at: now }).execute();
    const d = await load();
    if (!d) throw new Error("expected the screen");
    expect(d.reactions).toEqual({
      ok: true,
      rows: [
        { slug: "street-vespers", counts: { like: 2, love: 0, insightful: 0, pray: 1, clap: 0 }, total: 3 },
        { slug: "campus-week", counts: { like: 0, love: 0, insightful: 0, pray: 0, clap: 1 }, total: 1 },
      ],
    });
    expect(d.polls).toEqual({ ok: true, rows: [{ id: "blog-x-poll", question: "What do you think?", options: { Yes: 0, No: 1 } }] });
    if (!d.subscribers.ok) throw new Error("expected subscribers");
    expect(d.subscribers.rows).toHaveLength(100);
    expect(d.subscribers.rows[0]).toEqual({ email: "s104@example.org", status: "unsubscribed", source: "footer:/", createdAt: now });
  });

  it("'Poll id required' for a missing or blank id, keeping what was typed", async () => {
    for (const id of [undefined, "", "   "]) {
      const fields: Record<string, string> = { question: "Q?", options: "A,B" };
      if (id !== undefined) fields.id = id;
      const r = reply(await post(fields));
      expect(r.status).toBe(400);
      expect(r.data).toMatchObject({ status: "error", message: "Poll id required", result: { values: { question: "Q?", options: "A,B" } } });
    }
  });

  it("creates a poll: options comma-split, the first the seed, logged with the staff address", async () => {
    const r = reply(await post({ id: "street-poll", question: "Which night suits you?", options: " Friday , Saturday,, Sunday" }));
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ status: "success", message: "Poll created or ensured.", result: { id: "street-poll" } });
    expect(await optionsOf("street-poll")).toEqual(["Friday", "Saturday", "Sunday"]);
    const log = await db.selectFrom("activity").selectAll().execute();
    expect(log).toMatchObject([{ type: "polls.ensure", message: "Poll street-poll created or ensured", actor_ip: STAFF }]);
    expect(JSON.parse(log[0]!.meta)).toEqual({ id: "street-poll", options: ["Friday", "Saturday", "Sunday"] });
  });

  it("ensures an existing poll: new options added, old ones and their votes kept; no options seeds 'A'", async () => {
    await post({ id: "p1", options: "Yes,No" });
    await db.insertInto("poll_votes").values({ poll_id: "p1", option: "Yes", cid: "c1", created_at: "x" }).execute();
    await post({ id: "p1", options: "No,Maybe" });
    expect(await optionsOf("p1")).toEqual(["Yes", "No", "Maybe"]);
    expect(await db.selectFrom("poll_votes").select("option").execute()).toEqual([{ option: "Yes" }]);
    await post({ id: "empty-poll", options: " , " });
    expect(await optionsOf("empty-poll")).toEqual(["A"]);
  });

  it("the five-step template: each of the four feedback options with :1 to :5", async () => {
    const r = reply(await post({ id: "blog-new-feedback", options: "ignored", template: "on" }));
    expect(r.data.message).toBe("Poll created or ensured.");
    expect(await optionsOf("blog-new-feedback")).toEqual(feedbackPollOptions());
    expect(feedbackPollOptions()).toHaveLength(20);
    expect(feedbackPollOptions().slice(0, 6)).toEqual(["Inspired me:1", "Inspired me:2", "Inspired me:3", "Inspired me:4", "Inspired me:5", "Learned something:1"]);
  });

  it("each block shows its own failure text when its query throws; a failing create says 'Create failed'", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await post({ id: "p0", options: "A" });
      await sql`drop table blog_reactions`.execute(db);
      let d = await load();
      if (!d) throw new Error("expected the screen");
      expect(d.reactions).toEqual({ ok: false, error: "Reactions load failed" });
      expect(d.polls.ok && d.subscribers.ok).toBe(true);

      await sql`drop table subscribers`.execute(db);
      d = await load();
      if (!d) throw new Error("expected the screen");
      expect(d.subscribers).toEqual({ ok: false, error: "Subscribers load failed" });

      await sql`drop table poll_votes`.execute(db);
      d = await load();
      if (!d) throw new Error("expected the screen");
      expect(d.polls).toEqual({ ok: false, error: "Polls load failed" });
      const failed = reply(await post({ id: "p3", options: "A,B" }));
      expect(failed.status).toBe(500);
      expect(failed.data).toMatchObject({ status: "error", message: "Create failed", result: { values: { id: "p3" } } });

      const page = await render(engagementPage, "/admin/engagement", get("/admin/engagement", staff()));
      for (const m of ["Reactions load failed", "Polls load failed", "Subscribers load failed"]) expect(text(page.html)).toContain(m);
    } finally {
      errors.mockRestore();
    }
  });

  it("'Load failed' when the screen cannot load at all", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const broken = {
        ...engagementPage,
        loader: async () => {
          throw new Error("SQLITE_CANTOPEN: unable to open database file");
        },
      };
      const page = await render(broken, "/admin/engagement", get("/admin/engagement", staff()));
      expect(page.status).toBe(500);
      expect(text(page.html)).toContain("Load failed");
      expect(text(page.html)).not.toContain("SQLITE");
    } finally {
      errors.mockRestore();
    }
  });

  it("renders the create form as a plain POST form with the spec's defaults, and the result after posting", async () => {
    const page = await render(engagementPage, "/admin/engagement", get("/admin/engagement", staff()));
    expect(tagWith(page.html, "form", 'action="/admin/engagement"')).toContain('method="post"');
    expect(tagWith(page.html, "input", 'name="question"')).toContain('value="What do you think?"');
    expect(tagWith(page.html, "input", 'name="options"')).toContain('value="Yes,No"');
    const after = await render(
      engagementPage,
      "/admin/engagement",
      formPost("/admin/engagement", { intent: "ensure-poll", id: "night-poll", options: "Friday,Saturday" }, { ...staff(), Origin: ORIGIN }),
    );
    expect(after.status).toBe(200);
    expect(text(after.html)).toContain("Poll created or ensured.");
    expect(text(after.html)).toContain("night-poll");
    expect(text(after.html)).toMatch(/Friday\s*0/);
  });
});
