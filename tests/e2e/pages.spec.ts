import { contrastRatio } from "../../app/features/badge-art/colour";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { enhancedAt } from "../support/hydration";

const PUBLIC_PAGES = ["/", "/about", "/join", "/join/thanks", "/privacy", "/vespers", "/ministry"];
const FOOTER_LINKS = ["/", "/vespers", "/event", "/ministry", "/badges", "/merchandise", "/about", "/blogs", "/join", "/privacy"];

for (const path of PUBLIC_PAGES) {
  test(`page ${path}: 200, one h1, the shared footer, no console errors or CSP violations`, async ({
    page,
    jsEnabled,
    problems,
  }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    const h1 = page.locator("h1");
    await expect(h1).toHaveCount(1);
    await expect(h1).toBeVisible();
    await expect(h1).not.toHaveText(/^\s*$/);
    await expect(page).toHaveTitle(/\S/);

    const footer = page.getByRole("contentinfo");
    const links = footer.getByRole("navigation", { name: "Footer" }).getByRole("link");
    await expect(links).toHaveCount(FOOTER_LINKS.length);
    for (const [i, href] of FOOTER_LINKS.entries()) await expect(links.nth(i)).toHaveAttribute("href", href);
    await expect(footer.locator('a[href^="mailto:"]')).toHaveText(/^[^@\s]+@[^@\s]+\.[^@\s]+$/);
    await expect(footer.getByRole("button", { name: "Subscribe" })).toBeVisible();

    if (jsEnabled) {
      // Wait until the page has hydrated (where it does) and settled, then look at what went wrong, if anything.
      if (enhancedAt(jsEnabled, path)) await hydrated(footer.getByRole("button", { name: "Subscribe" }));
      await page.waitForLoadState("networkidle");
      expect(problems.pageErrors, "uncaught errors").toEqual([]);
      expect(problems.console, "console errors").toEqual([]);
      expect(await problems.csp(), "CSP violations").toEqual([]);
    }
  });
}

test("the footer's text reads at 4.5:1 or better against the footer, its newsletter data notice too", async ({ page }) => {
  await page.goto("/about");
  const footer = page.getByRole("contentinfo");
  await expect(footer.locator(".data-notice")).toBeVisible();
  // Each text element's colour and the footer's background, as the browser computed them; their
  // WCAG 2 contrast by the site's own helper (the one tier palettes are checked with).
  const hex = (rgb: string) => "#" + (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v).toString(16).padStart(2, "0")).join("");
  const { back, texts } = await footer.evaluate((root) => ({
    back: getComputedStyle(root).backgroundColor,
    texts: [...root.querySelectorAll<HTMLElement>("p, label, a, h2, li, small, span")]
      .filter((el) => el.textContent?.trim() && !el.closest("button"))
      .map((el) => ({ what: `${el.tagName.toLowerCase()}.${el.className} '${el.textContent!.trim().slice(0, 40)}'`, color: getComputedStyle(el).color })),
  }));
  const low = texts
    .map(({ what, color }) => ({ what, ratio: contrastRatio(hex(color), hex(back)) }))
    .filter(({ ratio }) => ratio < 4.5)
    .map(({ what, ratio }) => `${what} ${ratio.toFixed(2)}:1`);
  expect(low).toEqual([]);
});

test("/merch and /merch/admin move for good to /merchandise", async ({ request }) => {
  for (const [from, to] of [
    ["/merch", "/merchandise"],
    ["/merch/admin", "/merchandise/admin"],
    ["/merch?item=hoodie", "/merchandise?item=hoodie"],
  ]) {
    const res = await request.get(from!, { maxRedirects: 0 });
    expect(res.status(), from).toBe(301);
    expect(res.headers()["location"], from).toBe(to);
  }
});

test("an unknown path shows 'Page not found' with status 404", async ({ page, jsEnabled, problems }) => {
  const res = await page.goto("/no-such-page-here");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await expect(page.getByRole("link", { name: "Go to the home page" })).toHaveAttribute("href", "/");
  if (jsEnabled) {
    await page.waitForLoadState("networkidle");
    expect(problems.pageErrors).toEqual([]);
    // The browser reports the document's own 404; nothing else may go wrong.
    expect(problems.console.filter((m) => !/status of 404/.test(m))).toEqual([]);
    expect(await problems.csp()).toEqual([]);
  }
});

test("/vespers announcement dialog", async ({ page, jsEnabled }) => {
  await page.goto("/vespers");
  await expect(page.locator("h1")).toBeVisible();
  const dialog = page.getByRole("dialog");
  if (!jsEnabled) {
    // No script, no pop-up: the page content is there to read.
    await expect(dialog).toBeHidden();
    return;
  }
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("link", { name: "View Event Details" })).toHaveAttribute("href", "/event");
  await expect(dialog.getByRole("button", { name: "Maybe Later" })).toBeVisible();
  await dialog.getByRole("button", { name: "Maybe Later" }).click();
  await expect(dialog).toBeHidden();

  // 'Maybe Later' is remembered: the next visits do not ask again (for a week).
  await page.reload();
  await expect(page.locator("h1")).toBeVisible();
  await page.waitForTimeout(800); // the announcement opens 300 ms after load, when it opens at all
  await expect(dialog).toBeHidden();

  // Escape closes it too, and is remembered the same way.
  await page.evaluate(() => window.localStorage.clear());
  await page.reload();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.reload();
  await page.waitForTimeout(800);
  await expect(dialog).toBeHidden();
});
