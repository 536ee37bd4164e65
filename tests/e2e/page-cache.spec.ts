import { expect, test } from "../support/e2e-fixtures";
import { withDb } from "../support/e2e-db";
import { BASE_URL } from "../support/e2e-env";

/**
 * Pages that are the same for every visitor are answered from memory once rendered
 * (app/server/server.ts, answerFromPageCache). What must stay per request still is: a fresh CSP
 * nonce in header and body, the client-id cookie of a first visit, and the page view.
 */
const PHONE = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36";

test("a cached page answers each first visit with its own nonce and cookie, and counts every view", async ({ playwright, clientIp }, info) => {
  test.skip(info.project.name !== "js-on", "no browser needed");
  const referer = `https://cache-test-${Date.now().toString(36)}.example/`;
  const answers = [];
  // A new request context each time: no cookie jar, every request a first visit.
  const firstVisit = async (headers: Record<string, string>) => {
    const ctx = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { "X-Forwarded-For": clientIp, "User-Agent": PHONE, ...headers } });
    const res = await ctx.get("/privacy");
    return { res, body: await res.text(), done: () => ctx.dispose() };
  };
  for (let i = 0; i < 3; i++) {
    const { res, body, done } = await firstVisit({ Referer: referer });
    expect(res.status()).toBe(200);
    const csp = res.headers()["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce, "a nonce in the CSP").toBeTruthy();
    const inBody = [...body.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]);
    expect(inBody.length).toBeGreaterThan(0);
    expect(new Set(inBody)).toEqual(new Set([nonce]));
    const cookie = res.headersArray().find((h) => h.name.toLowerCase() === "set-cookie")?.value ?? "";
    expect(cookie).toMatch(/^cid=[0-9a-f]{32}; Path=\//);
    answers.push({ nonce, cid: cookie.slice(4, 36), body: body.replaceAll(nonce!, "N") });
    await done();
  }
  expect(new Set(answers.map((a) => a.nonce)).size).toBe(3);
  expect(new Set(answers.map((a) => a.cid)).size).toBe(3);
  expect(new Set(answers.map((a) => a.body)).size, "the same page apart from the nonce").toBe(1);
  // Every view counted, whichever way it was answered (views are written in small batches).
  const views = () =>
    withDb((db) => (db.prepare("select count(*) as n from analytics_events where type = 'page.view' and ref = ?").get(referer) as { n: number }).n);
  await expect.poll(views, { timeout: 10_000 }).toBe(3);

  // A returning visitor keeps their id: no new cookie.
  const again = await firstVisit({ Cookie: `cid=${answers[0]!.cid}` });
  expect(again.res.headersArray().some((h) => h.name.toLowerCase() === "set-cookie")).toBe(false);
  await again.done();
});
