import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/lib/db/db.server";
import * as adminPage from "~/routes/admin/index";
import * as badgeOrdersApi from "~/routes/api/badge-orders";
import { args, formPost, get, readJson, reply, thrown, type ApiError } from "../support/http";
import { freshApp } from "../support/reset";

// Staff in Nairobi mostly reach the site through a mobile carrier's shared addresses, or a
// hall's or office's one Wi-Fi address: strangers' wrong keys must never lock them out.
const KEY = "test-admin-key-0123456789";
const SHARED = "10.0.0.66";
let db: Db;

beforeEach(async () => {
  db = await freshApp({ ADMIN_KEY: KEY });
});

const api = (headers: Record<string, string>, address = SHARED) =>
  badgeOrdersApi.loader(args(get("/api/badge_orders.php", headers), address));
const apiWith = (key: string, address = SHARED) => api({ "X-Admin-Key": key }, address);
const signIn = (key: string, address = SHARED) =>
  adminPage.action(args(formPost("/admin", { intent: "sign-in", returnTo: "/admin/badge-orders", key }), address));

const activity = (type: string) =>
  db.selectFrom("activity").select(["type", "message", "meta", "actor_ip"]).where("type", "=", type).orderBy("id").execute();

async function wrongKeysFrom(address: string, n: number) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await apiWith(`wrong-key-${i}-0000000`, address)).status);
  return statuses;
}

describe("wrong admin keys from a shared address", () => {
  it("50 wrong keys, then the right key works at once on the JSON API and the sign-in form, while wrong keys keep getting 429", async () => {
    const statuses = await wrongKeysFrom(SHARED, 50);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));

    const listed = await readJson<{ ok: boolean; items: unknown[] }>(await apiWith(KEY));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ ok: true, items: [] });

    const signedIn = await thrown(signIn(KEY));
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/admin/badge-orders");
    expect(signedIn.headers.get("Set-Cookie")).toMatch(/^__admin=[^;]+;/);
    // The session works from the throttled address too.
    const cookie = signedIn.headers.get("Set-Cookie")!.split(";")[0]!;
    expect((await api({ Cookie: cookie })).status).toBe(200);

    // Still throttled for wrong keys, on both doors, with the time to wait.
    const refused = await readJson<ApiError>(await apiWith("yet-another-wrong-key"));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many attempts from your connection\. Please try again in \d+ minutes?\.$/);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(800);
    const form = reply(await signIn("yet-another-wrong-key"));
    expect(form.status).toBe(429);
    expect(form.data.message).toMatch(/^Too many attempts from your connection\./);
    expect(Number(form.headers.get("Retry-After"))).toBeGreaterThan(800);
  });

  it("the sign-in form alone: 50 wrong keys, then the right key signs in", async () => {
    for (let i = 0; i < 50; i++) {
      expect(reply(await signIn(`wrong-key-${i}-0000000`)).status).toBe(i < 5 ? 401 : 429);
    }
    expect((await thrown(signIn(KEY))).status).toBe(302);
  });

  it("a missing key is not a guess: 20 calls without a key, then five wrong keys are still 401s", async () => {
    for (let i = 0; i < 20; i++) {
      const res = await readJson<ApiError>(await api({}));
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("Admin key required.");
    }
    expect(await wrongKeysFrom(SHARED, 6)).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("a blank sign-in form is not a guess either", async () => {
    for (let i = 0; i < 10; i++) expect(reply(await signIn("   ")).status).toBe(400);
    expect(reply(await signIn("wrong-key-0000000")).status).toBe(401);
  });

  it("each address is counted on its own", async () => {
    await wrongKeysFrom(SHARED, 8);
    expect(await wrongKeysFrom("10.0.0.67", 1)).toEqual([401]);
  });
});

describe("wrong admin keys in the activity log", () => {
  it("each wrong key before the throttle is an entry; throttled guesses are one entry per address with their count", async () => {
    await wrongKeysFrom(SHARED, 50);
    await wrongKeysFrom("10.0.0.67", 7);
    reply(await signIn("wrong-on-the-form", "10.0.0.68"));
    const { flushWrongKeys } = await import("~/features/admin/wrong-keys.server");
    await flushWrongKeys();

    const perKey = await activity("admin.api_key_failed");
    expect(perKey.filter((a) => a.actor_ip === SHARED)).toHaveLength(5);
    expect(perKey.filter((a) => a.actor_ip === "10.0.0.67")).toHaveLength(5);
    expect(perKey[0]).toMatchObject({ message: "Wrong admin key (JSON API)" });
    expect(await activity("admin.sign_in_failed")).toMatchObject([{ message: "Wrong admin key", actor_ip: "10.0.0.68" }]);

    const throttled = await activity("admin.key_throttled");
    expect(throttled.map((a) => [a.actor_ip, JSON.parse(a.meta)])).toEqual([
      [SHARED, { count: 45 }],
      ["10.0.0.67", { count: 2 }],
    ]);
    expect(throttled[0]!.message).toBe("45 wrong admin keys refused while this address was throttled");
  });

  it("a flood of throttled guesses writes one entry, brought up to date in the background", async () => {
    await wrongKeysFrom(SHARED, 6);
    const first = await activity("admin.key_throttled");
    expect(first.map((a) => JSON.parse(a.meta))).toEqual([{ count: 1 }]);
    await wrongKeysFrom(SHARED, 200);
    expect(await activity("admin.key_throttled")).toHaveLength(1);
    await expect
      .poll(async () => (await activity("admin.key_throttled")).map((a) => JSON.parse(a.meta).count), { timeout: 5_000 })
      .toEqual([201]);
  });
});
