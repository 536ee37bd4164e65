import type { BrowserContext, Page } from "@playwright/test";
import { BASE_URL } from "../support/e2e-env";
import { expect, test } from "../support/e2e-fixtures";
import { bagDialog, itemBySlug, itemDialog, lineName, STORE } from "../support/e2e-store";

/**
 * The reader's first touch does what they meant, on a phone as people use it: 360x740 with
 * touch, the CPU slowed 4x and a slow 4G line (150 ms, 1.6 Mbps down). The scripts may arrive
 * while they choose or type (app/lib/http/first-paint.server.ts); nothing they chose or typed is
 * changed by them, and nothing they tap is dead.
 */
test.use({ readerMovesAtLoad: false, viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

async function slowPhone(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
}

/** Milliseconds since the page's load event. */
const sinceLoad = (page: Page) =>
  page.evaluate(() => performance.now() - (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventEnd);

async function waitUntilAfterLoad(page: Page, ms: number) {
  const wait = ms - (await sinceLoad(page));
  if (wait > 0) await page.waitForTimeout(wait);
}

for (const at of [1_000, 3_000]) {
  test(`a size tapped as the first touch ${at / 1000} s after load is the size checked 6 s later and the size in the bag`, async ({
    page,
    context,
    request,
    jsEnabled,
  }) => {
    test.skip(!jsEnabled, "scripts on: the scripts arriving are what could change the choice");
    test.setTimeout(90_000);
    const hoodie = await itemBySlug(request, "street-light-hoodie");
    await slowPhone(context, page);
    await page.goto(`${STORE}?item=${hoodie.slug}`, { waitUntil: "load" });
    const dialog = itemDialog(page, hoodie.name);
    await waitUntilAfterLoad(page, at);
    await dialog.locator("label.size-option").filter({ hasText: /^L$/ }).tap();
    await page.waitForTimeout(6_000);
    await expect(dialog.getByRole("radio", { name: "L", exact: true })).toBeChecked();
    await expect(dialog.getByRole("radio", { name: "S", exact: true })).not.toBeChecked();
    await expect(dialog, "the dialog the page came with is still open").toBeVisible();

    await dialog.getByRole("button", { name: "Add to bag" }).tap();
    const bag = bagDialog(page);
    await expect(bag).toBeVisible({ timeout: 20_000 });
    const firstColour = hoodie.colors[0]!.label;
    await expect(bag.getByRole("button", { name: new RegExp(`^Remove ?: ${lineName(hoodie.name, firstColour, "L")}$`) })).toBeVisible();
  });
}

test("a quantity typed before the scripts arrive is the quantity 6 s later", async ({ page, context, request, jsEnabled }) => {
  test.skip(!jsEnabled, "scripts on");
  test.setTimeout(60_000);
  const hoodie = await itemBySlug(request, "street-light-hoodie");
  await slowPhone(context, page);
  await page.goto(`${STORE}?item=${hoodie.slug}`, { waitUntil: "load" });
  const quantity = itemDialog(page, hoodie.name).getByLabel("Quantity", { exact: true });
  await quantity.tap();
  await quantity.selectText();
  await page.keyboard.type("3", { delay: 100 });
  await page.waitForTimeout(6_000);
  await expect(quantity).toHaveValue("3");
});

test("a name typed into the order form from the first touch is whole 6 s later, the focus where the reader put it", async ({
  page,
  context,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "scripts on");
  test.setTimeout(60_000);
  await slowPhone(context, page);
  await page.goto("/event?tier=t3", { waitUntil: "load" });
  const dialog = page.getByRole("dialog", { name: "Confirm your Big Friend" });
  const name = dialog.getByLabel("Full name");
  await name.tap();
  await page.keyboard.type("Amina Wanjiku", { delay: 150 });
  await page.waitForTimeout(6_000);
  await expect(name).toHaveValue("Amina Wanjiku");
  await expect(name).toBeFocused();
  await expect(dialog).toBeVisible();
  // Still a dialog that closes on Escape once the scripts are there.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(`${BASE_URL}/event`);
});

test("'Copy link' on a post copies on the first tap, before the page's scripts have started", async ({ page, context, jsEnabled }) => {
  test.skip(!jsEnabled, "scripts on; without them the button is not shown");
  test.setTimeout(60_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
  await slowPhone(context, page);
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  await page.goto("/blogs/campus-mission-week", { waitUntil: "load" });
  const panel = page.locator(".share-bar");
  const copy = panel.getByRole("button", { name: "Copy link" });
  await copy.scrollIntoViewIfNeeded();
  await waitUntilAfterLoad(page, 1_000);
  await copy.tap();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${BASE_URL}/blogs/campus-mission-week`);
  await page.waitForTimeout(6_000);
  await expect(panel.getByRole("status")).toHaveText("Link copied. Paste it anywhere to share this post.");
});

test("an address typed into the footer's newsletter box from the first touch is whole 6 s later and is the one subscribed", async ({
  page,
  context,
  jsEnabled,
  uniqueEmail,
}) => {
  test.skip(!jsEnabled, "scripts on");
  test.setTimeout(60_000);
  const email = uniqueEmail("firsttouch");
  await slowPhone(context, page);
  await page.goto("/blogs", { waitUntil: "load" });
  const footer = page.getByRole("contentinfo");
  const field = footer.getByRole("textbox");
  await field.evaluate((el) => el.scrollIntoView({ block: "center" }));
  await field.tap();
  await page.keyboard.type(email, { delay: 60 });
  await page.waitForTimeout(6_000);
  await expect(field).toHaveValue(email);
  await footer.getByRole("button", { name: "Subscribe" }).tap();
  await expect(footer.getByRole("status")).toContainText("Subscribed", { timeout: 20_000 });
});
