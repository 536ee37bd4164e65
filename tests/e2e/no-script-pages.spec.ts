import { expect, hydrated, test } from "../support/e2e-fixtures";
import { BASE_URL } from "../support/e2e-env";
import { NO_SCRIPT_PAGES } from "../bench/no-script-pages.mjs";

/**
 * Pages with nothing to enhance are sent without any JavaScript (a route's `handle = { hydrate:
 * false }`, app/lib/core/hydration.ts); the pages with something to enhance still hydrate.
 */
const HYDRATED_PAGES = ["/join", "/vespers", "/event", "/badges", "/merchandise", "/blogs", "/blogs/campus-mission-week"];

for (const path of NO_SCRIPT_PAGES) {
  test(`${path} is sent without scripts: no module, no preload, no inline script`, async ({ page, jsEnabled, problems }) => {
    const res = await page.goto(path);
    expect(res?.status(), "the page answers (a missing token is a 404 page, still without scripts)").toBeLessThan(500);
    await expect(page.locator("h1")).toHaveCount(1);
    expect(await page.locator('script[type="module"]').count()).toBe(0);
    expect(await page.locator('link[rel="modulepreload"]').count()).toBe(0);
    expect(await page.locator("script").count()).toBe(0);
    if (jsEnabled) {
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => "__reactRouterContext" in window), "no router booted").toBe(false);
      expect(problems.pageErrors).toEqual([]);
    }
  });
}

for (const path of HYDRATED_PAGES) {
  test(`${path} still ships its scripts and hydrates`, async ({ page, jsEnabled }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    expect(await res!.text()).toMatch(/<script type="module"/);
    if (jsEnabled) await hydrated(page.getByRole("contentinfo").locator('button[type="submit"]'));
  });
}

test("from a page that hydrated, a link to a page sent without scripts still opens it, and back", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "in-app navigation needs scripts");
  await page.goto("/blogs");
  await hydrated(page.getByRole("contentinfo").locator('button[type="submit"]'));
  await page.getByRole("contentinfo").getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "About" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/about`);
  await expect(page.locator("h1")).toHaveText("A volunteer family serving Nairobi's streets");
  await page.goBack();
  await expect(page).toHaveURL(`${BASE_URL}/blogs`);
  await expect(page.locator("h1")).toBeVisible();
});
