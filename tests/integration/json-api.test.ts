import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as activityApi from "~/routes/api/activity";
import * as notFoundApi from "~/routes/api/not-found";
import * as sendApi from "~/routes/api/send";
import * as subscribeApi from "~/routes/api/subscribe";
import * as subscribersApi from "~/routes/api/subscribers";
import * as trackApi from "~/routes/api/track";
import * as adminPage from "~/routes/admin/index";
import { recordActivity } from "~/features/activity/activity.server";
import { flushAnalytics } from "~/features/analytics/analytics.server";
import type { Db } from "~/lib/db/db.server";
import { ORIGIN, args, formPost, get, jsonPost, readJson, thrown, type ApiError } from "../support/http";
import { freshApp } from "../support/reset";

const KEY = "test-admin-key-0123456789";
let db: Db;

beforeEach(async () => {
  db = await freshApp({ SMTP_URL: undefined });
});

async function expectApiError(res: Response, status: number) {
  const { body, headers } = await readJson<ApiError>(res);
  expect(res.status).toBe(status);
  expect(headers.get("content-type")).toMatch(/^application\/json/);
  expect(body.ok).toBe(false);
  expect(typeof body.error).toBe("string");
  expect(body.error.length).toBeGreaterThan(0);
  expect(Object.keys(body).sort()).toEqual(["error", "ok"]);
  return body.error;
}

const subscribers = () => db.selectFrom("subscribers").selectAll().orderBy("id").execute();
const applications = () => db.selectFrom("applications").selectAll().orderBy("id").execute();

describe("POST /api/send.php", () => {
  it("stores the application and answers {ok:true,id}", async () => {
    const res = await sendApi.action(
      args(
        jsonPost("/api/send.php", {
          name: "Jane Wanjiru",
          email: "jane@example.org",
          role: "Writer / Content",
          message: "I write.",
          source: "join",
        }),
      ),
    );
    const { status, body } = await readJson<{ ok: boolean; id: number }>(res);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, id: expect.any(Number) });
    const rows = await applications();
    expect(rows).toMatchObject([{ id: body.id, name: "Jane Wanjiru", role: "Writer / Content", message: "I write.", source: "join" }]);
    const mail = await db.selectFrom("outbox").selectAll().execute();
    expect(mail).toMatchObject([{ kind: "application.notice", reply_to: "jane@example.org" }]);
  });

  it("an email alone is a General Interest application", async () => {
    const res = await sendApi.action(args(jsonPost("/api/send.php", { email: "x@example.org", source: "home:hero" })));
    expect((await readJson(res)).body).toMatchObject({ ok: true });
    expect(await applications()).toMatchObject([{ email: "x@example.org", role: "General Interest", name: "", source: "home:hero" }]);
  });

  it("a filled honeypot gets {ok:true} and nothing is stored", async () => {
    const res = await sendApi.action(args(jsonPost("/api/send.php", { email: "bot@example.org", website: "x" })));
    expect((await readJson(res)).body).toEqual({ ok: true });
    expect(await applications()).toHaveLength(0);
  });

  it("the sixth application from one address in ten minutes is a 429 with Retry-After", async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await sendApi.action(args(jsonPost("/api/send.php", { email: `a${i}@example.org` }), "10.0.0.5"));
      expect(res.status).toBe(200);
    }
    const res = await sendApi.action(args(jsonPost("/api/send.php", { email: "a6@example.org" }), "10.0.0.5"));
    expect(await expectApiError(res, 429)).toBe("Too many attempts from your connection. Please try again in 10 minutes.");
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    const other = await sendApi.action(args(jsonPost("/api/send.php", { email: "a6@example.org" }), "10.0.0.6"));
    expect(other.status).toBe(200);
  });
});

describe("POST /api/subscribe.php and /api/subscribers.php", () => {
  it("subscribe.php stores the subscriber and answers {ok:true}", async () => {
    const res = await subscribeApi.action(args(jsonPost("/api/subscribe.php", { email: "Reader@Example.org", source: "blogs:index" })));
    expect((await readJson(res)).body).toEqual({ ok: true });
    expect(await subscribers()).toMatchObject([{ email: "reader@example.org", source: "blogs:index", status: "active" }]);
  });

  it("subscribers.php POST does the same, and the pair the blog box sends stores one row", async () => {
    const body = { email: "reader@example.org", source: "blogs:street-vespers" };
    expect((await readJson(await subscribeApi.action(args(jsonPost("/api/subscribe.php", body))))).body).toEqual({ ok: true });
    expect((await readJson(await subscribersApi.action(args(jsonPost("/api/subscribers.php", body))))).body).toEqual({ ok: true });
    expect(await subscribers()).toHaveLength(1);
    expect(await db.selectFrom("outbox").select("kind").execute()).toEqual([{ kind: "newsletter.welcome" }]);
  });

  it("a bad email is a 400 with the product's message", async () => {
    const res = await subscribeApi.action(args(jsonPost("/api/subscribe.php", { email: "nope", source: "x" })));
    expect(await expectApiError(res, 400)).toBe("Please provide a valid email address.");
  });

  it("accepts a url-encoded form body too", async () => {
    const res = await subscribeApi.action(args(formPost("/api/subscribe.php", { email: "form@example.org", source: "footer:/" })));
    expect((await readJson(res)).body).toEqual({ ok: true });
    expect(await subscribers()).toMatchObject([{ email: "form@example.org" }]);
  });
});

describe("GET /api/subscribers.php?mode=list (admin)", () => {
  const list = (headers: Record<string, string> = {}, address = "10.0.0.1") =>
    subscribersApi.loader(args(get("/api/subscribers.php?mode=list", headers), address));

  it("without a key is a 401", async () => {
    await expectApiError(await list(), 401);
  });

  it("with X-Admin-Key lists {email,status,source,created_at}, newest first, at most 100", async () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    await db
      .insertInto("subscribers")
      .values(
        Array.from({ length: 105 }, (_, i) => ({
          email: `r${i + 1}@example.org`,
          status: i === 104 ? ("unsubscribed" as const) : ("active" as const),
          source: "footer:/",
          token: `token-${String(i).padStart(12, "0")}`,
          created_at: new Date(now + i * 1000).toISOString(),
          updated_at: new Date(now + i * 1000).toISOString(),
          unsubscribed_at: null,
        })),
      )
      .execute();
    const res = await list({ "X-Admin-Key": KEY });
    const { status, body } = await readJson<{ ok: boolean; items: Record<string, unknown>[] }>(res);
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.items).toHaveLength(100);
    expect(body.items[0]).toEqual({
      email: "r105@example.org",
      status: "unsubscribed",
      source: "footer:/",
      created_at: new Date(now + 104_000).toISOString(),
    });
    expect(body.items[99]!.email).toBe("r6@example.org");
  });

  it("an unknown mode is a 400", async () => {
    const res = await subscribersApi.loader(args(get("/api/subscribers.php?mode=all", { "X-Admin-Key": KEY })));
    await expectApiError(res, 400);
  });

  it("five wrong keys from one address, then the right key still works there and elsewhere", async () => {
    for (let i = 0; i < 5; i++) await expectApiError(await list({ "X-Admin-Key": "wrong-key-0000000000" }, "10.0.0.66"), 401);
    expect((await list({ "X-Admin-Key": KEY }, "10.0.0.66")).status).toBe(200);
    expect((await list({ "X-Admin-Key": KEY }, "10.0.0.67")).status).toBe(200);
  });

  it("a sixth wrong key is a 429", async () => {
    for (let i = 0; i < 5; i++) await list({ "X-Admin-Key": "wrong-key-0000000000" }, "10.0.0.68");
    await expectApiError(await list({ "X-Admin-Key": "wrong-key-0000000000" }, "10.0.0.68"), 429);
  });

  it.each([
    [{ "Sec-Fetch-Site": "cross-site" }],
    [{ "Sec-Fetch-Site": "same-site" }],
    [{ Origin: "https://evil.example" }],
    [{ Origin: "null" }],
  ])("a browser call from another site (%j) is a 403, even with the right key", async (headers) => {
    await expectApiError(await list({ "X-Admin-Key": KEY, ...headers }), 403);
  });

  it("a call from this site's own pages is accepted", async () => {
    expect((await list({ "X-Admin-Key": KEY, "Sec-Fetch-Site": "same-origin", Origin: ORIGIN })).status).toBe(200);
  });

  it("a staff session cookie from /admin works without the header", async () => {
    const signIn = await thrown(adminPage.action(args(formPost("/admin", { intent: "sign-in", key: KEY }))));
    const cookie = signIn.headers.get("Set-Cookie")!.split(";")[0]!;
    expect((await list({ Cookie: cookie })).status).toBe(200);
  });
});

describe("POST /api/track.php", () => {
  const track = (body: unknown, headers: Record<string, string> = {}) =>
    trackApi.action(args(jsonPost("/api/track.php", body, { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", ...headers })));
  const events = () => db.selectFrom("analytics_events").selectAll().orderBy("id").execute();

  it("counts a page view, an event with meta and a blog view, names as sent, paths without queries", async () => {
    const cid = "abcdef0123456789abcdef0123456789";
    const answers = [
      await track({ type: "page.view", page: "event.badges", path: "/badges?id=b5692&email=a@b.co", ref: "https://www.google.com/search?q=x", cid }),
      await track({ type: "event", name: "merch.store view", meta: { item: "hoodie", qty: 2 }, path: "/merchandise?item=hoodie#top", cid }),
      await track({ type: "blog.view", slug: "street-vespers", src: "share", ref: "" }, { "X-Client-Id": "headerclient0001" }),
    ];
    for (const res of answers) expect((await readJson(res)).body).toEqual({ ok: true, counted: true });
    expect(await events()).toHaveLength(0); // batched until flushed
    await flushAnalytics();
    const rows = await events();
    expect(rows.map((r) => ({ type: r.type, name: r.name, path: r.path, ref: r.ref, src: r.src, meta: JSON.parse(r.meta) as unknown, cid: r.cid }))).toEqual([
      { type: "page.view", name: "event.badges", path: "/badges", ref: "https://www.google.com/search", src: "", meta: {}, cid },
      { type: "event", name: "merch.store view", path: "/merchandise", ref: "", src: "", meta: { item: "hoodie", qty: 2 }, cid },
      { type: "blog.view", name: "street-vespers", path: "", ref: "", src: "share", meta: {}, cid: "headerclient0001" },
    ]);
  });

  it("a bot is answered but not counted", async () => {
    const res = await track({ type: "page.view", page: "home", path: "/" }, { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    expect((await readJson(res)).body).toEqual({ ok: true, counted: false });
    await flushAnalytics();
    expect(await events()).toHaveLength(0);
  });

  it.each([
    [{ type: "event", name: "<script>" }],
    [{ type: "page.view", page: "two  spaces" }],
    [{ type: "page.view" }],
    [{ type: "purchase", name: "x" }],
    [{ type: "event", name: "ok", meta: { nested: { no: 1 } } }],
  ])("refuses %j with a 400 and counts nothing", async (body) => {
    await expectApiError(await track(body), 400);
    await flushAnalytics();
    expect(await events()).toHaveLength(0);
  });
});

describe("GET /api/activity.php (admin)", () => {
  beforeEach(async () => {
    for (let i = 1; i <= 4; i++) {
      await recordActivity(db, { type: "blogs.save", message: `save ${i}`, meta: { n: i }, actorIp: "10.1.1.1" });
      await recordActivity(db, { type: "badges.generate_share", message: `share ${i}`, actorIp: "10.1.1.2" });
    }
  });

  it("gives the newest entries of a type, oldest first, with {ts,type,message,meta,actorIp}", async () => {
    const res = await activityApi.loader(args(get("/api/activity.php?limit=2&type=blogs.save", { "X-Admin-Key": KEY })));
    const { status, body } = await readJson<{ ok: boolean; items: Record<string, unknown>[] }>(res);
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.items).toEqual([
      { ts: expect.any(String), type: "blogs.save", message: "save 3", meta: { n: 3 }, actorIp: "10.1.1.1" },
      { ts: expect.any(String), type: "blogs.save", message: "save 4", meta: { n: 4 }, actorIp: "10.1.1.1" },
    ]);
    expect(Number.isNaN(Date.parse(body.items[0]!.ts as string))).toBe(false);
  });

  it("without a type gives every type, up to the limit", async () => {
    const res = await activityApi.loader(args(get("/api/activity.php?limit=3", { "X-Admin-Key": KEY })));
    const { body } = await readJson<{ items: { message: string }[] }>(res);
    expect(body.items.map((i) => i.message)).toEqual(["share 3", "save 4", "share 4"]);
  });

  it("needs the key, and refuses a bad limit or type with a 400", async () => {
    await expectApiError(await activityApi.loader(args(get("/api/activity.php?limit=2"))), 401);
    await expectApiError(await activityApi.loader(args(get("/api/activity.php?limit=5000", { "X-Admin-Key": KEY }))), 400);
    await expectApiError(await activityApi.loader(args(get("/api/activity.php?limit=abc", { "X-Admin-Key": KEY }))), 400);
    await expectApiError(await activityApi.loader(args(get("/api/activity.php?type=%3Cscript%3E", { "X-Admin-Key": KEY }))), 400);
  });
});

describe("errors are always JSON with a real status", () => {
  it("malformed JSON is a 400", async () => {
    expect(await expectApiError(await sendApi.action(args(jsonPost("/api/send.php", '{"email": "a@b.co",'))), 400)).toBe(
      "Request body must be valid JSON.",
    );
  });

  it("a JSON array, string or null is a 400", async () => {
    for (const body of ['[{"email":"a@b.co"}]', '"a@b.co"', "null"]) {
      await expectApiError(await subscribeApi.action(args(jsonPost("/api/subscribe.php", body))), 400);
    }
    expect(await subscribers()).toHaveLength(0);
  });

  it("wrong types are a 400", async () => {
    await expectApiError(await subscribeApi.action(args(jsonPost("/api/subscribe.php", { email: 5 }))), 400);
    await expectApiError(await sendApi.action(args(jsonPost("/api/send.php", { email: "a@b.co", name: ["x"] }))), 400);
    await expectApiError(await sendApi.action(args(jsonPost("/api/send.php", { email: "a@b.co", role: "Pilot" }))), 400);
  });

  it("a body over 16 KB is a 413, with or without a declared length", async () => {
    const big = JSON.stringify({ email: "a@b.co", message: "x".repeat(17 * 1024) });
    await expectApiError(await sendApi.action(args(jsonPost("/api/send.php", big))), 413);
    const declared = jsonPost("/api/send.php", big, { "content-length": String(Buffer.byteLength(big)) });
    await expectApiError(await sendApi.action(args(declared)), 413);
    expect(await applications()).toHaveLength(0);
  });

  it("a method the endpoint does not take is a 405 with Allow", async () => {
    const put = new Request(`${ORIGIN}/api/send.php`, { method: "PUT", body: "{}", headers: { "content-type": "application/json" } });
    const res = await sendApi.action(args(put));
    await expectApiError(res, 405);
    expect(res.headers.get("Allow")).toBe("POST");
    const getSend = await sendApi.loader(args(get("/api/send.php")));
    await expectApiError(getSend, 405);
    const del = await subscribersApi.action(args(new Request(`${ORIGIN}/api/subscribers.php`, { method: "DELETE" })));
    await expectApiError(del, 405);
    expect(del.headers.get("Allow")).toBe("GET, POST");
  });

  it("an unknown endpoint is a JSON 404", async () => {
    await expectApiError(await notFoundApi.loader(args(get("/api/x.php"))), 404);
    await expectApiError(await notFoundApi.action(args(jsonPost("/api/x.php", {}))), 404);
  });

  it("error answers are not cached", async () => {
    const res = await notFoundApi.loader(args(get("/api/x.php")));
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });
});

afterEach(async () => {
  await flushAnalytics();
});
