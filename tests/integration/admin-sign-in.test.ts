import { createCookie, createStaticHandler } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as adminPage from "~/routes/admin/index";
import * as subscribersApi from "~/routes/api/subscribers";
import { resetAdminForTests } from "~/features/admin/staff-auth.server";
import type { Db } from "~/lib/db/db.server";
import { resetEnvForTests } from "~/lib/server/env.server";
import { getSessionSecret, resetSecretsForTests } from "~/lib/db/secrets.server";
import { ORIGIN, args, formPost, get, reply, testContext, thrown } from "../support/http";
import { freshApp } from "../support/reset";

const KEY = "test-admin-key-0123456789";
const STAFF = "10.0.0.42";
let db: Db;

beforeEach(async () => {
  db = await freshApp({ ADMIN_KEY: KEY, SMTP_URL: undefined });
});
afterEach(() => {
  vi.useRealTimers();
});

const signInForm = (key: string, returnTo = "/admin", headers: Record<string, string> = {}) =>
  formPost("/admin", { intent: "sign-in", returnTo, key }, headers);

async function signIn(address = STAFF) {
  const res = await thrown(adminPage.action(args(signInForm(KEY), address)));
  const setCookie = res.headers.get("Set-Cookie") ?? "";
  return { res, setCookie, cookie: setCookie.split(";")[0]! };
}

const sessionPost = (intent: string, cookie?: string, headers: Record<string, string> = {}, fields: Record<string, string> = {}) =>
  adminPage.action(args(formPost("/admin", { intent, ...fields }, { ...(cookie ? { Cookie: cookie } : {}), ...headers })));

/** The staff home's data: null signed out (the layout shows the sign-in form). */
const page = (cookie?: string) => adminPage.loader(args(get("/admin", cookie ? { Cookie: cookie } : {})));

/** Whether a cookie opens a staff session, as the JSON API sees it. */
async function works(cookie: string) {
  const res = await subscribersApi.loader(args(get("/api/subscribers.php?mode=list", { Cookie: cookie })));
  return res.status === 200;
}

const activity = () => db.selectFrom("activity").selectAll().orderBy("id").execute();

describe("signing in at /admin", () => {
  it("the right key redirects back with a session cookie that is HttpOnly, SameSite=Strict, Path=/", async () => {
    const { res, setCookie } = await signIn();
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin");
    expect(setCookie).toMatch(/^__admin=[^;]+;/);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Strict/i);
    expect(setCookie).toMatch(/;\s*Path=\/(;|$)/);
    expect(setCookie).toMatch(/;\s*Max-Age=43200/);
    expect(setCookie).not.toMatch(/;\s*Secure/i); // PUBLIC_URL is http here
  });

  it("the cookie is Secure whenever PUBLIC_URL is https", async () => {
    db = await freshApp({ ADMIN_KEY: KEY, PUBLIC_URL: "https://outreach.example.org" });
    const res = await thrown(adminPage.action(args(signInForm(KEY, "/admin", { Origin: "https://outreach.example.org" }))));
    expect(res.headers.get("Set-Cookie")).toMatch(/;\s*Secure(;|$)/i);
    const cleared = await thrown(sessionPost("sign-out", undefined, { Origin: "https://outreach.example.org" }));
    expect(cleared.headers.get("Set-Cookie")).toMatch(/;\s*Secure(;|$)/i);
  });

  it("with the cookie the page shows the staff screen and the sign-in with the staff address", async () => {
    expect(await page()).toBeNull();
    const { cookie } = await signIn();
    const data = await page(cookie);
    expect(data?.activity).toContainEqual(
      expect.objectContaining({ type: "admin.sign_in", message: "Staff signed in", actorIp: STAFF }),
    );
  });

  it("sends a local returnTo back, and anything else to /", async () => {
    const ok = await thrown(adminPage.action(args(signInForm(KEY, "/admin/badge-orders?status=pending"))));
    expect(ok.headers.get("Location")).toBe("/admin/badge-orders?status=pending");
    // Browsers drop tabs and line breaks from a Location: "/\t/evil.example" is "//evil.example".
    const decoded = ["%2F%09%2Fevil.example", "%2F%0A%2Fevil", "%2F%0D%0ASet-Cookie:%20x=1", "%2F%00", "%2F%E2%80%A8%2Fevil"].map(decodeURIComponent);
    for (const bad of ["//evil.example/x", "https://evil.example", "/\\evil.example", ...decoded]) {
      const res = await thrown(adminPage.action(args(signInForm(KEY, bad))));
      expect(res.headers.get("Location")).toBe("/");
    }
  });

  it("a wrong key is a 401 with a message and the returnTo kept, recorded as admin.sign_in_failed, and sets no cookie", async () => {
    const r = reply(await adminPage.action(args(signInForm("not-the-key-at-all", "/admin/activity"), STAFF)));
    expect(r.status).toBe(401);
    expect(r.data).toEqual({ status: "error", message: "That admin key is not right.", result: { returnTo: "/admin/activity" } });
    expect(r.headers.get("Set-Cookie")).toBeNull();
    expect(await activity()).toMatchObject([{ type: "admin.sign_in_failed", actor_ip: STAFF }]);
  });

  it("an empty key is a 400 asking for it", async () => {
    const r = reply(await adminPage.action(args(signInForm("   "))));
    expect(r.status).toBe(400);
    expect(r.data.message).toBe("Admin key required.");
  });

  it("a sixth wrong key is a 429, and another address can still sign in", async () => {
    for (let i = 0; i < 5; i++) await adminPage.action(args(signInForm(`wrong-${i}`), "10.0.0.78"));
    const r = reply(await adminPage.action(args(signInForm("wrong-6"), "10.0.0.78")));
    expect(r.status).toBe(429);
    expect(r.data.message).toMatch(/^Too many attempts from your connection\./);
    const other = await signIn("10.0.0.79");
    expect(other.res.status).toBe(302);
  });

  it("the wrong-key throttle holds even with RATE_LIMIT=off", async () => {
    db = await freshApp({ ADMIN_KEY: KEY, RATE_LIMIT: "off" });
    for (let i = 0; i < 5; i++) await adminPage.action(args(signInForm(`wrong-${i}`), "10.0.0.80"));
    expect(reply(await adminPage.action(args(signInForm("wrong-6"), "10.0.0.80"))).status).toBe(429);
  });

  it("a cross-site sign-in post is refused with a 403, as the browser sees it", async () => {
    const handler = createStaticHandler([
      { id: "admin", path: "/admin", loader: adminPage.loader, action: adminPage.action, hasErrorBoundary: true },
    ]);
    const ctx = await handler.query(signInForm(KEY, "/admin", { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" }), {
      requestContext: testContext(STAFF),
    });
    if (ctx instanceof Response) throw new Error(`expected a rendered page, got a ${ctx.status} Response`);
    expect(ctx.statusCode).toBe(403);
    expect(await activity()).toHaveLength(0);
  });
});

describe("signing out, everywhere, and key changes", () => {
  it("sign-out clears the cookie and the page asks to sign in again", async () => {
    const { cookie } = await signIn();
    const res = await thrown(sessionPost("sign-out", cookie));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin");
    const cleared = res.headers.get("Set-Cookie") ?? "";
    expect(cleared).toMatch(/^__admin=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect(await page(cleared.split(";")[0])).toBeNull();
    expect((await activity()).map((a) => a.type)).toEqual(["admin.sign_in", "admin.sign_out"]);
  });

  it("sign-out ends the session on the server: a copy of the cookie no longer signs anyone in", async () => {
    const { cookie } = await signIn();
    expect(await works(cookie)).toBe(true);
    await thrown(sessionPost("sign-out", cookie));
    expect(await works(cookie)).toBe(false);
    expect(await page(cookie)).toBeNull();
  });

  it("'sign out everywhere' ends every staff session, on every device", async () => {
    const phone = await signIn("10.0.0.50");
    const laptop = await signIn("10.0.0.51");
    expect(await works(phone.cookie)).toBe(true);
    expect(await works(laptop.cookie)).toBe(true);
    const res = await thrown(sessionPost("sign-out-everywhere", laptop.cookie, {}, { confirmed: "yes" }));
    expect(res.headers.get("Location")).toBe("/admin");
    expect(res.headers.get("Set-Cookie")).toMatch(/^__admin=;/);
    expect(await works(phone.cookie)).toBe(false);
    expect(await works(laptop.cookie)).toBe(false);
    expect((await activity()).map((a) => a.type)).toEqual(["admin.sign_in", "admin.sign_in", "admin.sign_out_everywhere"]);
    expect(await db.selectFrom("staff_sessions").selectAll().execute()).toEqual([]);
  });

  it("'sign out everywhere' asks first (what it does, where to go back) and ends no session until confirmed", async () => {
    const phone = await signIn("10.0.0.50");
    const laptop = await signIn("10.0.0.51");
    const asked = await sessionPost("sign-out-everywhere", laptop.cookie, {}, { returnTo: "/admin/check-in?q=wanjiru" });
    const answer = reply(asked);
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({
      status: "success",
      message: "Sign out every staff phone and computer?",
      result: { confirm: "sign-out-everywhere", returnTo: "/admin/check-in?q=wanjiru" },
    });
    expect(await works(phone.cookie)).toBe(true);
    expect(await works(laptop.cookie)).toBe(true);
    expect((await activity()).map((a) => a.type)).toEqual(["admin.sign_in", "admin.sign_in"]);
    // Somewhere else to go back to is refused: Cancel stays on this site.
    const offsite = reply(await sessionPost("sign-out-everywhere", laptop.cookie, {}, { returnTo: "//evil.example/x" }));
    expect(offsite.data.result).toMatchObject({ returnTo: "/" });
  });

  it("the key typed in the plain box ('Show the key', without JavaScript) signs in; the masked box is read otherwise", async () => {
    const plain = await thrown(adminPage.action(args(formPost("/admin", { intent: "sign-in", returnTo: "/admin", key: "", keyShown: KEY, showKey: "yes" }))));
    expect(plain.status).toBe(302);
    const masked = await thrown(adminPage.action(args(formPost("/admin", { intent: "sign-in", returnTo: "/admin", key: KEY, keyShown: "" }))));
    expect(masked.status).toBe(302);
    // Ticked after typing in the masked box: the masked box's key still counts.
    const ticked = await thrown(adminPage.action(args(formPost("/admin", { intent: "sign-in", returnTo: "/admin", key: KEY, keyShown: "", showKey: "yes" }))));
    expect(ticked.status).toBe(302);
    const wrong = await adminPage.action(args(formPost("/admin", { intent: "sign-in", returnTo: "/admin", key: "", keyShown: "wrong-key-wrong-key", showKey: "yes" })));
    expect(reply(wrong).status).toBe(401);
  });

  it("signed out, 'sign out everywhere' and 'sign out' end nobody's session and write no log entry", async () => {
    const { cookie } = await signIn();
    await thrown(sessionPost("sign-out-everywhere"));
    await thrown(sessionPost("sign-out", "__admin=forged"));
    expect(await works(cookie)).toBe(true);
    expect((await activity()).map((a) => a.type)).toEqual(["admin.sign_in"]);
  });

  it("a session ends after 12 hours on the server too, and expired sessions are deleted at the next sign-in", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2026-06-10T08:00:00.000Z"));
    const morning = await signIn();
    vi.setSystemTime(Date.parse("2026-06-10T19:59:00.000Z"));
    expect(await works(morning.cookie)).toBe(true);
    vi.setSystemTime(Date.parse("2026-06-10T20:00:01.000Z"));
    expect(await works(morning.cookie)).toBe(false);
    const evening = await signIn();
    const rows = await db.selectFrom("staff_sessions").select(["created_at", "expires_at", "actor_ip"]).execute();
    expect(rows).toEqual([{ created_at: "2026-06-10T20:00:01.000Z", expires_at: "2026-06-11T08:00:01.000Z", actor_ip: STAFF }]);
    expect(await works(evening.cookie)).toBe(true);
  });

  it("the database keeps no usable session id: only a hash of the cookie's", async () => {
    const { cookie } = await signIn();
    const [row] = await db.selectFrom("staff_sessions").select("id").execute();
    expect(row!.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(decodeURIComponent(cookie)).not.toContain(row!.id);
  });

  it("a cookie made under an old ADMIN_KEY stops working once the key changes", async () => {
    const { cookie } = await signIn();
    expect(await page(cookie)).not.toBeNull();

    // A restart with a new key: same data folder (same session secret), new settings.
    process.env.ADMIN_KEY = "a-brand-new-admin-key-42";
    resetEnvForTests();
    resetSecretsForTests();
    resetAdminForTests();
    expect(await page(cookie)).toBeNull();
    const api = await subscribersApi.loader(args(get("/api/subscribers.php?mode=list", { Cookie: cookie })));
    expect(api.status).toBe(401);
    const again = await thrown(adminPage.action(args(signInForm("a-brand-new-admin-key-42"))));
    const fresh = again.headers.get("Set-Cookie")!.split(";")[0]!;
    expect(await page(fresh)).not.toBeNull();
  });
});

describe("forged session cookies", () => {
  it("a tampered, unsigned or foreign-signed cookie is not a session, on the page or the JSON API", async () => {
    const { cookie } = await signIn();
    const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
    const at = value.lastIndexOf(".") + 3; // a character inside the signature
    const swapped = value.slice(0, at) + (value[at] === "A" ? "B" : "A") + value.slice(at + 1);
    expect(swapped).not.toBe(value);
    const foreign = await createCookie("__admin", { secrets: ["not-this-site's-secret-0123456789"] }).serialize(
      JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8")),
    );
    for (const forged of [
      `__admin=${encodeURIComponent(swapped)}`,
      "__admin=eyJrZiI6IngifQ%3D%3D",
      foreign.split(";")[0]!,
      "__admin=",
    ]) {
      expect(await page(forged), forged).toBeNull();
      expect(await works(forged), forged).toBe(false);
    }
  });

  it("a correctly signed cookie naming no open session is refused", async () => {
    const made = createCookie("__admin", { secrets: [getSessionSecret()] });
    for (const id of ["A".repeat(43), "x", "../../etc/passwd"]) {
      const forged = (await made.serialize(id)).split(";")[0]!;
      expect(await page(forged), id).toBeNull();
      expect(await works(forged), id).toBe(false);
    }
  });
});

describe("the page's origin check", () => {
  it("a same-origin sign-in is accepted", async () => {
    const res = await thrown(adminPage.action(args(signInForm(KEY, "/admin", { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" }))));
    expect(res.status).toBe(302);
  });
});
