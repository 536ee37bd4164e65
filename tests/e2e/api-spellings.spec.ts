import { expect, test } from "../support/e2e-fixtures";
import { badgeOrderById, ORDER_REF, uniqueCode } from "../support/e2e-badges";

// The JSON API is answered by React Router's resource routes, at its exact addresses and at the
// other spellings React Router matches (another letter case), with the same handler. Each answer
// here is asked both ways and must be the same.
const DIRECT = "/api/badge_orders.php";
const THROUGH_ROUTER = "/API/badge_orders.php";

test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "no browser: runs once");

const answerOf = async (res: import("@playwright/test").APIResponse) => ({
  status: res.status(),
  type: res.headers()["content-type"],
  cache: res.headers()["cache-control"],
  allow: res.headers()["allow"],
  body: await res.text(),
});

test("a refused order, a wrong method and a missing key read the same at the exact address and at another spelling", async ({ request }) => {
  const cases: [string, (url: string) => Promise<import("@playwright/test").APIResponse>][] = [
    ["order without fields", (url) => request.post(url, { data: { tierKey: "t1" } })],
    ["body that is not JSON", (url) => request.post(url, { data: "{", headers: { "content-type": "application/json" } })],
    ["staff list without the key", (url) => request.get(url)],
    ["wrong admin key", (url) => request.get(url, { headers: { "X-Admin-Key": "not-the-key" } })],
    ["DELETE", (url) => request.delete(url)],
  ];
  for (const [label, ask] of cases) {
    const direct = await answerOf(await ask(DIRECT));
    const routed = await answerOf(await ask(THROUGH_ROUTER));
    expect(direct.status, label).toBeGreaterThanOrEqual(400);
    expect(direct.status, label).toBeLessThan(500);
    expect(direct.type, label).toMatch(/^application\/json/);
    expect(direct, label).toEqual(routed);
  }
});

test("an order placed at the exact address is stored and answered as one placed at another spelling", async ({ request, uniqueEmail }, info) => {
  const place = async (url: string, n: number) => {
    const res = await request.post(url, {
      data: { tierKey: "t2", name: `Direct Supporter ${n}`, email: uniqueEmail(`direct-${n}`), paymentReference: uniqueCode(info) },
    });
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^application\/json/);
    const body = (await res.json()) as { ok: boolean; id: string; orderUrl: string };
    expect(body).toEqual({ ok: true, id: expect.stringMatching(ORDER_REF), orderUrl: expect.stringContaining("/orders/") });
    expect(badgeOrderById(body.id)).toMatchObject({ tier_key: "t2", name: `Direct Supporter ${n}`, status: "pending" });
    return Object.keys(body).sort();
  };
  expect(await place(DIRECT, 1)).toEqual(await place(THROUGH_ROUTER, 2));
});

test("HEAD answers the GET's status and headers without a body, at the exact address and at another spelling", async ({ request }) => {
  const get = await request.get("/api/series.php");
  expect(get.status()).toBe(200);
  expect(Array.isArray(await get.json())).toBe(true);
  for (const url of ["/api/series.php", "/API/series.php"]) {
    const head = await request.head(url);
    expect(head.status(), url).toBe(200);
    expect(head.headers()["content-type"], url).toBe(get.headers()["content-type"]);
    expect((await head.body()).length, url).toBe(0);
  }
});
