import { createStaticHandler } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import * as adminPage from "~/routes/admin/index";
import * as subscribersApi from "~/routes/api/subscribers";
import { resetAdminForTests } from "~/lib/admin.server";
import type { Db } from "~/lib/db.server";
import { resetEnvForTests } from "~/lib/env.server";
import { resetSecretsForTests } from "~/lib/secrets.server";
import { ORIGIN, args, formPost, get, reply, thrown } from "../support/http";
import { freshApp } from "../support/reset";

const KEY = "test-admin-key-0123456789";
const STAFF = "10.0.0.42";
let db: Db;

beforeEach(async () => {
  db = await freshApp({ ADMIN_KEY: KEY, SMTP_URL: undefined });
});

const signInForm = (key: string, returnTo = "/admin", headers: Record<string, string> = {}) =>
  formPost("/admin", { intent: "sign-in", returnTo, key }, headers);

async function signIn(address = STAFF) {
  const res = await thrown(adminPage.action(args(signInForm(KEY), address)));
  const setCookie = res.headers.get("Set-Cookie") ?? "";
  return { res, setCookie, cookie: setCookie.split(";")[0]! };
}

const page = (cookie?: string) => adminPage.loader(args(get("/admin", cookie ? { Cookie: cookie } : {})));

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

  it("with the cookie the page shows the staff screen and the sign-in with the staff address", async () => {
    expect(await page()).toMatchObject({ signedIn: false, returnTo: "/admin" });
    const { cookie } = await signIn();
    const data = await page(cookie);
    expect(data.signedIn).toBe(true);
    if (!data.signedIn) return;
    expect(data.activity).toContainEqual(
      expect.objectContaining({ type: "admin.sign_in", message: "Staff signed in", actorIp: STAFF }),
    );
  });

  it("sends a local returnTo back, and anything else to /", async () => {
    const ok = await thrown(adminPage.action(args(signInForm(KEY, "/admin/badge-orders?status=pending"))));
    expect(ok.headers.get("Location")).toBe("/admin/badge-orders?status=pending");
    for (const bad of ["//evil.example/x", "https://evil.example", "/\\evil.example"]) {
      const res = await thrown(adminPage.action(args(signInForm(KEY, bad))));
      expect(res.headers.get("Location")).toBe("/");
    }
  });

  it("a wrong key is a 401 with a message, recorded as admin.sign_in_failed, and sets no cookie", async () => {
    const r = reply(await adminPage.action(args(signInForm("not-the-key-at-all"), STAFF)));
    expect(r.status).toBe(401);
    expect(r.data.error).toBe("That admin key is not right.");
    expect(r.headers.get("Set-Cookie")).toBeNull();
    expect(await activity()).toMatchObject([{ type: "admin.sign_in_failed", actor_ip: STAFF }]);
  });

  it("an empty key is a 400 asking for it", async () => {
    const r = reply(await adminPage.action(args(signInForm("   "))));
    expect(r.status).toBe(400);
    expect(r.data.error).toBe("Admin key required.");
  });

  it("after five wrong keys from one address, the next try is a 429 even with the right key", async () => {
    for (let i = 0; i < 5; i++) {
      expect(reply(await adminPage.action(args(signInForm(`wrong-${i}`), "10.0.0.77"))).status).toBe(401);
    }
    const r = reply(await adminPage.action(args(signInForm(KEY), "10.0.0.77")));
    expect(r.status).toBe(429);
    expect(r.data.error).toMatch(/^Too many attempts from your connection\. Please try again in \d+ minutes?\.$/);
  });

  it("a sixth wrong key is a 429, and another address can still sign in", async () => {
    for (let i = 0; i < 5; i++) await adminPage.action(args(signInForm(`wrong-${i}`), "10.0.0.78"));
    const r = reply(await adminPage.action(args(signInForm("wrong-6"), "10.0.0.78")));
    expect(r.status).toBe(429);
    expect(r.data.error).toMatch(/^Too many attempts from your connection\./);
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
      requestContext: { clientAddress: STAFF },
    });
    if (ctx instanceof Response) throw new Error(`expected a rendered page, got a ${ctx.status} Response`);
    expect(ctx.statusCode).toBe(403);
    expect(await activity()).toHaveLength(0);
  });
});

describe("signing out and key changes", () => {
  it("sign-out clears the cookie and the page asks to sign in again", async () => {
    const { cookie } = await signIn();
    const res = await thrown(adminPage.action(args(formPost("/admin", { intent: "sign-out" }, { Cookie: cookie }))));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin");
    const cleared = res.headers.get("Set-Cookie") ?? "";
    expect(cleared).toMatch(/^__admin=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect(await page(cleared.split(";")[0])).toMatchObject({ signedIn: false });
    expect((await activity()).map((a) => a.type)).toEqual(["admin.sign_in", "admin.sign_out"]);
  });

  it("a cookie made under an old ADMIN_KEY stops working once the key changes", async () => {
    const { cookie } = await signIn();
    expect((await page(cookie)).signedIn).toBe(true);

    // A restart with a new key: same data folder (same session secret), new settings.
    process.env.ADMIN_KEY = "a-brand-new-admin-key-42";
    resetEnvForTests();
    resetSecretsForTests();
    resetAdminForTests();
    expect((await page(cookie)).signedIn).toBe(false);
    const api = await subscribersApi.loader(args(get("/api/subscribers.php?mode=list", { Cookie: cookie })));
    expect(api.status).toBe(401);
    const again = await thrown(adminPage.action(args(signInForm("a-brand-new-admin-key-42"))));
    const fresh = again.headers.get("Set-Cookie")!.split(";")[0]!;
    expect((await page(fresh)).signedIn).toBe(true);
  });

  it("a forged or tampered cookie is not a session", async () => {
    const { cookie } = await signIn();
    const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
    const at = value.lastIndexOf(".") + 3; // a character inside the signature
    const swapped = value.slice(0, at) + (value[at] === "A" ? "B" : "A") + value.slice(at + 1);
    expect(swapped).not.toBe(value);
    const tampered = `__admin=${encodeURIComponent(swapped)}`;
    expect((await page(tampered)).signedIn).toBe(false);
    expect((await page("__admin=eyJrZiI6IngifQ%3D%3D")).signedIn).toBe(false);
  });
});

describe("the page's origin check", () => {
  it("a same-origin sign-in is accepted", async () => {
    const res = await thrown(adminPage.action(args(signInForm(KEY, "/admin", { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" }))));
    expect(res.status).toBe(302);
  });
});
