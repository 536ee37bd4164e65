import type { Page } from "@playwright/test";
import { signInTo } from "../support/e2e-badges";
import { ADMIN_KEY, BASE_URL } from "../support/e2e-env";
import { expect, hydrated, test } from "../support/e2e-fixtures";

const SCREENS = [
  ["Overview", "/admin"],
  ["Badge orders", "/admin/badge-orders"],
  ["Merch orders", "/admin/merch-orders"],
  ["M-Pesa payments", "/admin/payments"],
  ["Door check-in", "/admin/check-in"],
  ["Event", "/admin/event"],
  ["Team badges", "/admin/team-badges"],
  ["Merchandise editor", "/merchandise/admin"],
  ["Blog editor", "/blogs/admin"],
  ["Activity & analytics", "/admin/activity"],
  ["Engagement", "/admin/engagement"],
  ["People's data", "/admin/people"],
  ["Old site imports", "/admin/imports"],
] as const;

// 'Sign out everywhere' ends every staff session on the server, those of the other browser
// tests running beside this file too, so it is tested in tests/integration/admin-sign-in.test.ts.

/** The public site's menu and newsletter footer are not on staff pages. */
async function expectNoPublicChrome(page: Page) {
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Subscribe", exact: true })).toHaveCount(0);
}

test("staff screens have their own slim header: the site's name, every staff screen, sign out; no public menu or footer", async ({
  page,
  jsEnabled,
  problems,
}) => {
  await page.goto("/admin/engagement");
  const banner = page.getByRole("banner");
  await expect(banner).toContainText("Street Light Outreach");
  await expect(banner.getByRole("navigation", { name: "Staff tools" })).toHaveCount(0);
  await expectNoPublicChrome(page);

  await signInTo(page, "/admin/engagement", jsEnabled);
  const tools = banner.getByRole("navigation", { name: "Staff tools" });
  await expect(tools.getByRole("link")).toHaveCount(SCREENS.length);
  for (const [i, [label, href]] of SCREENS.entries()) {
    await expect(tools.getByRole("link").nth(i)).toHaveText(label);
    await expect(tools.getByRole("link").nth(i)).toHaveAttribute("href", href);
  }
  await expect(tools.getByRole("link", { name: "Engagement" })).toHaveAttribute("aria-current", "page");
  await expect(banner.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
  await expect(banner.getByRole("button", { name: "Sign out everywhere" })).toBeVisible();
  await expectNoPublicChrome(page);

  // Through the staff menu to every screen: each has its heading, none the public menu.
  for (const [label, href] of SCREENS) {
    if (jsEnabled) await hydrated(tools.getByRole("link", { name: label, exact: true }));
    await tools.getByRole("link", { name: label, exact: true }).click();
    await expect(page).toHaveURL(`${BASE_URL}${href}`);
    await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(tools.getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
    await expectNoPublicChrome(page);
  }
  if (jsEnabled) {
    await page.waitForLoadState("networkidle");
    expect(problems.pageErrors, "uncaught errors").toEqual([]);
    expect(problems.console, "console errors").toEqual([]);
    expect(await problems.csp(), "CSP violations").toEqual([]);
  }
});

test.describe("plain HTTP", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, "no page is rendered: run once");

  test("staff pages and their data answer Cache-Control: no-store; public pages do not", async ({ request }) => {
    const signedOut = await request.get("/admin/activity");
    expect(signedOut.status()).toBe(200);
    expect(signedOut.headers()["cache-control"]).toBe("no-store");

    const signIn = await request.post("/admin", {
      form: { intent: "sign-in", returnTo: "/admin/badge-orders", key: ADMIN_KEY },
      headers: { Origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(302);
    for (const path of ["/admin", "/admin/badge-orders", "/admin/merch-orders", "/admin/payments", "/admin/activity", "/admin/engagement", "/blogs/admin", "/merchandise/admin"]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      expect(await res.text(), path).toContain("Sign out everywhere");
      expect(res.headers()["cache-control"], path).toBe("no-store");
    }
    // What a client-side navigation fetches.
    const data = await request.get("/admin/badge-orders.data");
    expect(data.status()).toBe(200);
    expect(data.headers()["cache-control"]).toBe("no-store");

    const wrong = await request.post("/admin", { form: { intent: "sign-in", returnTo: "/admin", key: "wrong-key-wrong-key" }, headers: { Origin: BASE_URL } });
    expect(wrong.status()).toBe(401);
    expect(wrong.headers()["cache-control"]).toBe("no-store");

    expect((await request.get("/about")).headers()["cache-control"]).toBe("private, no-cache");
  });

  test("share pages carry the site's Content-Security-Policy", async ({ request }) => {
    for (const [path, status] of [
      ["/share/b5692.html", 200],
      ["/share/no-such-badge.html", 404],
      ["/share/blogs/no-such-post.html", 404],
      ["/share/merchandise/no-such-item.html", 404],
    ] as const) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(status);
      const csp = res.headers()["content-security-policy"] ?? "";
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'none'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(res.headers()["x-content-type-options"], path).toBe("nosniff");
    }
  });
});
