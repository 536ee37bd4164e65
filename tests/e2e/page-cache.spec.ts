import crypto from "node:crypto";
import type { APIResponse } from "@playwright/test";
import { expect, test } from "../support/e2e-fixtures";
import { withDb } from "../support/e2e-db";
import { BASE_URL } from "../support/e2e-env";
import { itemBySlug } from "../support/e2e-store";

/**
 * Pages that are the same for every visitor are answered from memory once rendered
 * (app/server/server.ts, answerFromPageCache): the same bytes for everyone, inline scripts
 * allowed by their hashes. What must stay per request still is: the client-id cookie of a first
 * visit and the page view. What differs per visitor (their reactions, their bag) never leaks.
 */
const PHONE = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36";

test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "plain HTTP checks: run once");

const cookieOf = (res: APIResponse) => res.headersArray().find((h) => h.name.toLowerCase() === "set-cookie")?.value ?? "";
const fromCache = (res: APIResponse) => /'sha256-/.test(res.headers()["content-security-policy"] ?? "") && !/'nonce-/.test(res.headers()["content-security-policy"] ?? "");

test("a cached page: the same bytes for every first visit, each with its own cookie, every view counted, compressed once, 304 when unchanged", async ({
  playwright,
  clientIp,
}) => {
  const referer = `https://cache-test-${Date.now().toString(36)}.example/`;
  const answers: { cid: string; body: string }[] = [];
  // A new request context each time: no cookie jar, every request a first visit.
  const visit = async (headers: Record<string, string>) => {
    const ctx = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": clientIp, "User-Agent": PHONE, ...headers } });
    const res = await ctx.get("/vespers"); // a cached page that hydrates (/privacy is sent without scripts)
    return { res, body: await res.text(), done: () => ctx.dispose() };
  };
  for (let i = 0; i < 3; i++) {
    const { res, body, done } = await visit({ Referer: referer });
    expect(res.status()).toBe(200);
    const csp = res.headers()["content-security-policy"] ?? "";
    expect(csp).not.toContain("'nonce-");
    // Every inline script is allowed by its hash, and only those.
    const hashes = [...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]);
    const inline = [...body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/\bsrc=/.test(m[1]!) && m[2]);
    expect(inline.length).toBeGreaterThan(0);
    expect(new Set(hashes)).toEqual(new Set(inline.map((m) => crypto.createHash("sha256").update(m[2]!).digest("base64"))));
    expect(res.headers()["vary"]).toMatch(/Save-Data, Cookie, Accept-Encoding/);
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/^cid=[0-9a-f]{32}; Path=\//);
    answers.push({ cid: cookie.slice(4, 36), body });
    await done();
  }
  expect(new Set(answers.map((a) => a.cid)).size).toBe(3);
  expect(new Set(answers.map((a) => a.body)).size, "byte-identical pages").toBe(1);
  // Prepared for a fast first paint (app/lib/http/first-paint.server.ts): its stylesheets inside it,
  // and no script fetched before it has painted (this fails if React Router's boot script changes shape).
  const page = answers[0]!.body;
  expect(page).toMatch(/<style data-inline-href="\/assets\/site-[^"]+\.css">/);
  expect(page).not.toMatch(/<link rel="stylesheet" href="\/assets\/[^"]+"\/>/);
  expect(page).not.toContain('<link rel="modulepreload"');
  // (The share panels' first-tap handler comes first, then the wait.)
  expect(page).toMatch(/<script type="module" async="">addEventListener\("click", [^<]*\n\s*await new Promise/);
  // Every view counted, whichever way it was answered (views are written in small batches).
  const views = () =>
    withDb((db) => (db.prepare("select count(*) as n from analytics_events where type = 'page.view' and ref = ?").get(referer) as { n: number }).n);
  await expect.poll(views, { timeout: 10_000 }).toBe(3);

  // A returning visitor keeps their id: no new cookie. Brotli when asked for, and what the
  // browser already holds is not sent again.
  const again = await visit({ Cookie: `cid=${answers[0]!.cid}`, "Accept-Encoding": "gzip, br" });
  expect(cookieOf(again.res)).toBe("");
  expect(again.res.headers()["content-encoding"]).toBe("br");
  expect(again.body).toBe(answers[0]!.body);
  const etag = again.res.headers()["etag"]!;
  expect(etag).toMatch(/^W\/"/);
  await again.done();
  const unchanged = await visit({ Cookie: `cid=${answers[0]!.cid}`, "If-None-Match": etag });
  expect(unchanged.res.status()).toBe(304);
  expect(unchanged.body).toBe("");
  await unchanged.done();
});

test("a post: a first visit comes from the cache and shows new counts at once; a visitor's own reactions never leak to others", async ({
  playwright,
  clientIp,
}) => {
  const slug = "campus-mission-week";
  const newContext = (headers: Record<string, string> = {}) =>
    playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": clientIp, "User-Agent": PHONE, ...headers } });
  const likes = (html: string) => Number(/Like<\/span><span class="reaction-count">(\d+)</.exec(html)?.[1]);
  const pressed = (html: string) => (html.match(/aria-pressed="true"/g) ?? []).length;

  const stranger = await newContext();
  const before = await stranger.get(`/blogs/${slug}`);
  const beforeHtml = await before.text();
  expect(pressed(beforeHtml)).toBe(0);
  const start = likes(beforeHtml);
  expect(Number.isInteger(start)).toBe(true);
  await stranger.dispose();

  // A reader with a client id likes the post.
  const cid = crypto.randomBytes(16).toString("hex");
  const reader = await newContext({ Cookie: `cid=${cid}` });
  const liked = await reader.post("/api/reactions.php", { headers: { "X-Client-Id": cid }, data: { slug, reaction: "like" } });
  expect(liked.status()).toBe(200);
  try {
    const theirs = await reader.get(`/blogs/${slug}`);
    expect(fromCache(theirs), "a page with the reader's own reactions is rendered for them").toBe(false);
    const theirsHtml = await theirs.text();
    expect(pressed(theirsHtml)).toBe(1);
    expect(likes(theirsHtml)).toBe(start + 1);

    // Two strangers after them: the new count at once (the like forgot the cached page), and
    // nothing of the reader's; the second is answered from the cache.
    for (let i = 0; i < 2; i++) {
      const other = await newContext();
      const res = await other.get(`/blogs/${slug}`);
      const html = await res.text();
      expect(pressed(html)).toBe(0);
      expect(likes(html)).toBe(start + 1);
      if (i === 1) expect(fromCache(res)).toBe(true);
      await other.dispose();
    }
  } finally {
    await reader.post("/api/reactions.php", { headers: { "X-Client-Id": cid }, data: { slug, reaction: "like", undo: true } });
    await reader.dispose();
  }
});

test("the store: a shopper's bag is theirs alone; a first visit gets the cached store with no bag", async ({ playwright, clientIp, request }) => {
  const tote = await itemBySlug(request, "street-light-tote");
  const newContext = () => playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": clientIp, "User-Agent": PHONE } });
  const bagCount = (html: string) => /class="bag-fab-count">(\d+)</.exec(html)?.[1];

  const warm = await newContext();
  await warm.get("/merchandise");
  await warm.dispose();

  const shopper = await newContext();
  const added = await shopper.post("/merchandise", { form: { intent: "add", itemId: tote.id, quantity: "2", size: "One size" }, maxRedirects: 0 });
  expect(added.status()).toBeLessThan(400);
  const theirs = await shopper.get("/merchandise");
  expect(fromCache(theirs)).toBe(false);
  expect(bagCount(await theirs.text())).toBe("2");
  await shopper.dispose();

  const stranger = await newContext();
  const store = await stranger.get("/merchandise");
  expect(fromCache(store)).toBe(true);
  expect(bagCount(await store.text())).toBeUndefined();
  await stranger.dispose();
});

test("scripts and stylesheets are sent as the build compressed them (brotli, else gzip), the same bytes as plain", async ({ request }) => {
  const blogs = await (await request.get("/blogs")).text(); // a page that hydrates (/ is sent without scripts)
  const script = /"(\/assets\/entry\.client-[^"]+\.js)"/.exec(blogs)?.[1];
  expect(script, "the entry script named on the blog index").toBeTruthy();
  const plain = await request.get(script!, { headers: { "Accept-Encoding": "identity" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  for (const [accept, encoding] of [["gzip, deflate, br", "br"], ["gzip", "gzip"]] as const) {
    const res = await request.get(script!, { headers: { "Accept-Encoding": accept } });
    expect(res.headers()["content-encoding"], accept).toBe(encoding);
    expect(Number(res.headers()["content-length"]), "compressed on disk, not on the fly").toBeLessThan((await plain.body()).length / 2);
    expect((await res.body()).equals(await plain.body()), "the same script once decompressed").toBe(true);
  }
});

test("site pictures come as the AVIF and WebP the page's srcset names, each with its own type", async ({ request }) => {
  const store = await (await request.get("/merchandise")).text();
  const avif = /<source type="image\/avif" srcSet="([^" ]+) 160w/.exec(store)?.[1];
  const webp = /<img src="[^"]+" srcSet="([^" ]+) 160w/.exec(store)?.[1];
  expect(avif, "an AVIF srcset on the store's first card").toMatch(/^\/img\/160\/images\/merch\/.+\.webp\.avif$/);
  expect(webp).toMatch(/^\/img\/160\/images\/merch\/.+\.webp\.webp$/);
  const a = await request.get(avif!);
  expect(a.status()).toBe(200);
  expect(a.headers()["content-type"]).toBe("image/avif");
  expect((await a.body()).subarray(4, 12).toString("latin1")).toBe("ftypavif");
  const w = await request.get(webp!);
  expect(w.headers()["content-type"]).toBe("image/webp");
  expect((await w.body()).subarray(8, 12).toString("latin1")).toBe("WEBP");
});
