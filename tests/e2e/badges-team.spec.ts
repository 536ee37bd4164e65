import { expect, hydrated, test } from "../support/e2e-fixtures";
import { BASE_URL } from "../support/e2e-env";
import { imageInfo } from "../support/e2e-badges";
import type { Page } from "@playwright/test";

// The programme's seed (app/features/team-badges/seed-data.ts): nine issued badges, five open.
const EARNED = 9;
const ALL = 14;

const grid = (page: Page) => page.locator(".badge-grid > li");
const card = (page: Page, id: string) => grid(page).filter({ has: page.locator("code", { hasText: new RegExp(`^${id}$`) }) });

test("badges: won-only grid, show unearned, search by holder, category tab", async ({ page, jsEnabled }) => {
  await page.goto("/badges");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Team badges");
  const count = main.getByRole("heading", { name: /^\d+ badges?$/ });
  await expect(count).toHaveText(`${EARNED} badges`);
  await expect(grid(page)).toHaveCount(EARNED);
  await expect(grid(page).getByRole("link", { name: /^View/ })).toHaveCount(EARNED);
  await expect(grid(page).getByRole("link", { name: /^Work on this/ })).toHaveCount(0);
  // An earned card: holder, issue date, ID, category.
  const brian = card(page, "b5692");
  await expect(brian).toContainText("Brian Kiprotich");
  await expect(brian).toContainText("12 Mar 2025");
  await expect(brian.locator(".badge-category")).toHaveText("Developers");

  const wonOnly = main.getByRole("checkbox", { name: "Show only won badges" });
  await expect(wonOnly).toBeChecked();
  if (jsEnabled) {
    // Hydrated, unticking the box runs the search at once.
    await hydrated(wonOnly);
    await wonOnly.uncheck();
  } else {
    await wonOnly.uncheck();
    await main.getByRole("button", { name: "Search", exact: true }).click();
  }
  await expect(page).toHaveURL(/[?&]won=0(&|#|$)/);
  await expect(count).toHaveText(`${ALL} badges`);
  await expect(grid(page)).toHaveCount(ALL);
  await expect(wonOnly).not.toBeChecked();
  const open = card(page, "c7104");
  await expect(open).toContainText("Not yet issued");
  await expect(open.getByRole("progressbar")).toHaveAttribute("value", "80");
  await expect(open.getByRole("link", { name: /^Work on this/ })).toHaveAttribute("href", "/join");
  await expect(grid(page).getByRole("link", { name: /^Work on this/ })).toHaveCount(ALL - EARNED);

  // Search by holder (still showing unearned ones): one card.
  const search = main.getByRole("searchbox", { name: "Search badges" });
  await search.fill("achieng");
  await main.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/[?&]q=achieng(&|#|$)/);
  await expect(count).toHaveText("1 badge");
  await expect(grid(page)).toHaveCount(1);
  await expect(card(page, "m3318")).toContainText("Achieng Odhiambo");
  await expect(wonOnly).not.toBeChecked();

  // A search with no match: the empty state.
  await search.fill("nobody-has-this-name");
  await search.press("Enter");
  await expect(main.getByText("No badges found")).toBeVisible();
  await expect(grid(page)).toHaveCount(0);

  // A category tab, from a fresh list: only that category's earned badges.
  await page.goto("/badges");
  const tabs = main.getByRole("navigation", { name: "Badge categories" });
  await expect(tabs.getByRole("link")).toHaveText(["All", "Developers", "Evangelism", "Media", "Community"]);
  await expect(tabs.getByRole("link", { name: "All" })).toHaveAttribute("aria-current", "page");
  if (jsEnabled) await hydrated(tabs.getByRole("link", { name: "Media" }));
  await tabs.getByRole("link", { name: "Media" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/badges?category=media#badges-list-title`);
  await expect(tabs.getByRole("link", { name: "Media" })).toHaveAttribute("aria-current", "page");
  await expect(count).toHaveText("2 badges");
  await expect(grid(page).locator(".badge-category")).toHaveText(["Media", "Media"]);
  await expect(card(page, "m3318")).toBeVisible();
  await expect(card(page, "m3321")).toBeVisible();
});

test("badges: verify a badge by ID, case-insensitive; an unknown ID is Not found", async ({ page, jsEnabled }) => {
  await page.goto("/badges");
  const box = page.getByRole("region", { name: "Verify a badge by ID" });
  const field = box.getByLabel("Badge ID");
  const verify = box.getByRole("button", { name: "Verify" });
  if (jsEnabled) await hydrated(verify);

  await field.fill("B5692");
  await verify.click();
  const result = box.getByRole("status");
  await expect(result.locator(".verify-verdict")).toHaveText("Valid");
  await expect(result).toContainText("Team Lead Founders");
  await expect(result.locator("code")).toHaveText("b5692");
  await expect(result).toContainText("Brian Kiprotich");
  await expect(result).toContainText("12 Mar 2025");
  await expect(page).toHaveURL(/[?&]verify=B5692(&|#|$)/);

  await box.getByLabel("Badge ID").fill("zz0000");
  await box.getByRole("button", { name: "Verify" }).click();
  await expect(result.locator(".verify-verdict")).toHaveText("Not found");
  await expect(result).toContainText("zz0000");
  await expect(result).not.toContainText("Valid");

  // An open badge's ID exists but has no holder: not a valid badge either.
  await box.getByLabel("Badge ID").fill("c7104");
  await box.getByRole("button", { name: "Verify" }).click();
  await expect(result.locator(".verify-verdict")).toHaveText("Not found");
  await expect(result).toContainText("hasn't been issued");
});

test("badges: View opens the detail dialog with a download named by the spec's rule; image and share page", async ({
  page,
  jsEnabled,
  problems,
}) => {
  await page.goto("/badges");
  const view = card(page, "m3318").getByRole("link", { name: /^View/ });
  if (jsEnabled) await hydrated(view);
  await view.click();
  await expect(page).toHaveURL(`${BASE_URL}/badges?id=m3318`);
  const dialog = page.getByRole("dialog", { name: "Team Lead coFounders" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Achieng Odhiambo");
  await expect(dialog).toContainText("2 Apr 2025");
  await expect(dialog.locator("code")).toHaveText("m3318");

  const download = dialog.getByRole("link", { name: "Download Badge" });
  await expect(download).toHaveAttribute("href", "/open/badges/m3318.png");
  await expect(download).toHaveAttribute("download", "Team_Lead_coFounders_m3318.png");
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  expect(file.suggestedFilename()).toBe("Team_Lead_coFounders_m3318.png");
  const fs = await import("node:fs/promises");
  expect(await imageInfo(await fs.readFile((await file.path())!))).toEqual({ format: "png", width: 1080, height: 1080 });

  await expect(dialog.getByRole("link", { name: /^Share to LinkedIn/ })).toHaveAttribute(
    "href",
    /^https:\/\/www\.linkedin\.com\/profile\/add\?.*certId=m3318/,
  );
  await expect(dialog.getByRole("link", { name: /^WhatsApp/ })).toHaveAttribute("href", /^https:\/\/wa\.me\/\?text=/);
  await expect(dialog.getByLabel("Share link")).toHaveValue(`${BASE_URL}/share/m3318.html`);

  // The image answers a 1080x1080 PNG; the share page carries the 1200x630 card as og:image and leads back here.
  const image = await page.request.get("/open/badges/m3318.png");
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
  expect(await imageInfo(await image.body())).toEqual({ format: "png", width: 1080, height: 1080 });
  const share = await page.request.get("/share/m3318.html");
  expect(share.status()).toBe(200);
  const html = await share.text();
  expect(html).toContain(`<meta property="og:image" content="${BASE_URL}/badges/cards/m3318.png">`);
  const previewCard = await page.request.get("/badges/cards/m3318.png");
  expect(previewCard.status()).toBe(200);
  expect(await imageInfo(await previewCard.body())).toEqual({ format: "png", width: 1200, height: 630 });
  expect(html).toContain('<meta http-equiv="refresh" content="0; url=/badges?id=m3318">');

  if (jsEnabled) {
    // A real modal: Escape closes it and the address loses ?id=.
    await expect(dialog.getByRole("button", { name: "Copy Link" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(`${BASE_URL}/badges`);
    expect(problems.pageErrors, "uncaught errors").toEqual([]);
    expect(problems.console, "console errors").toEqual([]);
    expect(await problems.csp(), "CSP violations").toEqual([]);
  } else {
    // Without a script, the close link is the way back to the list.
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(`${BASE_URL}/badges`);
  }

  // Opening the share page in the browser lands on the badge's own view.
  await page.goto("/share/m3318.html");
  await expect(page).toHaveURL(`${BASE_URL}/badges?id=m3318`);
  await expect(page.getByRole("dialog", { name: "Team Lead coFounders" })).toBeVisible();
  // ?id= pre-fills the search and the verify box.
  await expect(page.getByRole("searchbox", { name: "Search badges" })).toHaveValue("m3318");
  await expect(page.getByRole("region", { name: "Verify a badge by ID" }).getByLabel("Badge ID")).toHaveValue("m3318");
});

test("badges: an unearned badge's dialog says it is not yet issued", async ({ page }) => {
  await page.goto("/badges?won=0&id=d7101");
  const dialog = page.getByRole("dialog", { name: "Contributor" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    "This badge hasn't been issued to a holder yet. Complete the requirements to earn and verify it.",
  );
  await expect(dialog.getByRole("link", { name: "Download Badge" })).toHaveCount(0);
  await expect(dialog.getByRole("link", { name: "Work on this" })).toHaveAttribute("href", "/join");
});
