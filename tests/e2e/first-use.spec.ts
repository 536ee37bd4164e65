import type { Page } from "@playwright/test";
import { expect, hydrated, markWindow, test } from "../support/e2e-fixtures";

/**
 * A cached page starts its scripts at the reader's first use (app/lib/http/first-paint.server.ts):
 * until a touch, a key or the mouse, it loads and runs no JavaScript, and it works as it does
 * with scripts off. These journeys keep the page untouched at load.
 */
test.use({ readerMovesAtLoad: false });

/** Every script the page asks for, by its path. */
function scriptsOf(page: Page) {
  const seen: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") seen.push(new URL(r.url()).pathname);
  });
  return seen;
}

test("a reading page read but not touched loads no script; the first touch of the mouse starts it", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "scripts on only");
  const scripts = scriptsOf(page);
  await page.goto("/blogs");
  await expect(page.locator("h1")).toBeVisible();
  await page.waitForTimeout(1_500);
  expect(scripts, "nothing fetched before the reader uses the page").toEqual([]);
  expect(await page.evaluate(() => "__reactRouterRouteModules" in window)).toBe(false);

  const button = page.getByRole("contentinfo").locator('button[type="submit"]');
  await hydrated(button); // moves the mouse
  expect(scripts.some((s) => /^\/assets\/entry\.client-[\w-]+\.js$/.test(s))).toBe(true);
});

test("a key press starts the scripts too", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "scripts on only");
  const scripts = scriptsOf(page);
  await page.goto("/blogs/campus-mission-week");
  await page.waitForTimeout(500);
  expect(scripts).toEqual([]);
  await page.keyboard.press("Tab");
  await expect.poll(() => page.evaluate(() => "__reactRouterRouteModules" in window)).toBe(true);
});

test("a page whose purpose is a form or a store starts its scripts untouched, once the browser is idle after load", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "scripts on only");
  for (const path of ["/merchandise", "/event", "/join", "/badges", "/badges/verify"]) {
    await page.goto(path);
    await expect.poll(() => page.evaluate(() => "__reactRouterRouteModules" in window), { message: path }).toBe(true);
  }
});

test("a post starts its scripts when its reactions come near the screen, not before", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "scripts on only");
  const scripts = scriptsOf(page);
  await page.goto("/blogs/campus-mission-week");
  await page.waitForTimeout(1_000);
  expect(scripts, "the reader is at the top of the post").toEqual([]);
  await page.evaluate(() => document.getElementById("reactions")!.scrollIntoView()); // not a use of the page
  await expect.poll(() => page.evaluate(() => "__reactRouterRouteModules" in window)).toBe(true);
});

test.describe("on a touch screen", () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 360, height: 740 } });

  test("the tap that starts the scripts is not slowed by them: they wait for its click, and its link is followed", async ({ page, context, jsEnabled }) => {
    test.skip(!jsEnabled, "scripts on only");
    await page.goto("/blogs");
    await page.waitForTimeout(500);
    const link = page.getByRole("link", { name: "Building the badge kit: how our volunteer developers ship", exact: true });
    await link.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await page.waitForTimeout(300);
    const box = (await link.boundingBox())!;
    const point = { x: Math.round(box.x + 5), y: Math.round(box.y + box.height / 2) };
    const cdp = await context.newCDPSession(page);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => "__reactRouterRouteModules" in window), "nothing started inside the press").toBe(false);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await expect(page).toHaveURL(/\/blogs\/building-the-badge-kit$/);
  });
});

test("before its scripts arrive, a form's first tap sends it the plain way", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "scripts on only");
  // The scripts never arrive (a connection lost mid-load): the page still does its work.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto("/badges/verify");
  const box = page.locator("form").filter({ has: page.getByLabel("Badge ID") });
  await box.getByLabel("Badge ID").fill("b5692");
  await box.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/badges\/verify\/b5692$/);
  await expect(page.locator(".verify-verdict")).toHaveText("Valid");
});

test("/vespers opens its announcement 300 ms after load without starting the page's framework", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "scripts on only");
  const scripts = scriptsOf(page);
  await page.goto("/vespers");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Maybe Later" })).toBeFocused();
  expect(scripts, "only the announcement's own small script").toEqual(["/js/announcement.js"]);
  await page.keyboard.press("Escape"); // a key: from here the scripts start
  await expect(dialog).toBeHidden();
  await page.reload();
  await page.waitForTimeout(800);
  await expect(dialog, "closed is remembered").toBeHidden();
});

test("the reader's place is kept: nothing is written to history before first use; after it, Back from a post returns to the same place in the list", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "scripts on only");
  await page.goto("/blogs");
  expect(await page.evaluate(() => history.state), "no history entry written at load").toBeNull();
  const link = page.getByRole("link", { name: "Building the badge kit: how our volunteer developers ship", exact: true });
  await hydrated(link);
  expect(await page.evaluate(() => typeof history.state?.key), "the entry is keyed before React Router starts").toBe("string");
  await link.scrollIntoViewIfNeeded();
  await page.evaluate(() => scrollBy(0, 40));
  const place = await page.evaluate(() => Math.round(scrollY));
  expect(place).toBeGreaterThan(300);
  const stay = await markWindow(page);
  await link.click();
  await expect(page).toHaveURL(/\/blogs\/building-the-badge-kit$/);
  await page.evaluate(() => scrollTo(0, 0));
  await page.goBack();
  await expect(page).toHaveURL(/\/blogs$/);
  await stay(); // moved inside the app, not by loading pages
  await expect.poll(() => page.evaluate(() => Math.round(scrollY))).toBe(place);
});
