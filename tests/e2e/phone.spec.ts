import type { Locator, Page } from "@playwright/test";
import { fillOrder, openTierDialog, uniqueCode } from "../support/e2e-badges";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { addToBag, checkoutDialog, EMAIL_MESSAGE, fillCheckout, itemBySlug, ORDER_ID, openItem } from "../support/e2e-store";

/**
 * The journeys as a supporter on a phone sees them: a 360x740 screen, with and without
 * JavaScript. What someone must read after pressing a button is on the first screen and not
 * covered by anything; nothing scrolls sideways.
 */
test.use({ viewport: { width: 360, height: 740 } });

/** The element under the centre of `target` is `target` itself (or inside it): nothing covers it. */
async function expectUncovered(target: Locator) {
  await expect(target).toBeInViewport({ ratio: 1 });
  const onTop = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && (hit === el || el.contains(hit));
  });
  expect(onTop, "nothing is drawn over it").toBe(true);
}

async function scrollWidth(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

const PAGES = ["/", "/about", "/event", "/badges", "/blogs", "/merchandise", "/vespers", "/join", "/ministry", "/orders"];

async function expectNoSidewaysScroll(page: Page) {
  expect(await scrollWidth(page), page.url()).toBeLessThanOrEqual(360);
}

test("no page scrolls sideways at 360 px; with JavaScript, not with the text at 150% either", async ({ page, jsEnabled }) => {
  test.setTimeout(60_000);
  for (const path of PAGES) {
    await page.goto(path);
    expect(await scrollWidth(page), path).toBeLessThanOrEqual(360);
    if (jsEnabled) {
      // Android's font size setting scales the root font size.
      await page.evaluate(() => document.documentElement.style.setProperty("font-size", "150%"));
      expect(await scrollWidth(page), `${path} at 150% text`).toBeLessThanOrEqual(360);
    }
  }
});

test("the main menu is one row and opens without JavaScript", async ({ page }) => {
  await page.goto("/event");
  const header = page.locator(".site-header");
  const box = (await header.boundingBox())!;
  expect(box.height, "one row, not a fifth of the screen").toBeLessThanOrEqual(72);
  // No second header under the site's own on /event.
  await expect(page.locator("header")).toHaveCount(1);
  const menu = page.locator("summary", { hasText: "Menu" });
  await expect(menu).toBeVisible();
  await expect(page.getByRole("link", { name: "Store" })).toBeHidden();
  await menu.click();
  await page.getByRole("link", { name: "Store" }).click();
  await expect(page).toHaveURL(/\/merchandise$/);
});

test("/event: tiers and prices within the first screen and a half; the email button is never greyed out", async ({ page, jsEnabled }) => {
  await page.goto("/event");
  const firstPrice = page.locator(".tier-amount").first();
  await expect(firstPrice).toHaveText("KES 300");
  const top = (await firstPrice.boundingBox())!.y;
  expect(top, "the first price is within 1.5 screens").toBeLessThan(740 * 1.5);
  const updates = page.getByRole("button", { name: "Send me updates" });
  if (jsEnabled) await hydrated(updates);
  await expect(updates).toBeEnabled();
});

test("/event: after 'Submit confirmation' the done state shows the reference first, with what happens next", async ({
  page,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const dialog = await openTierDialog(page, "Friends Badge", jsEnabled);
  await fillOrder(dialog, { name: "Phone Supporter", email: uniqueEmail("phone-event"), code: uniqueCode(info) });
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  const ref = dialog.locator(".order-ref");
  await expect(ref).toHaveText(/^BO-[0-9A-Z]{6}$/, { timeout: 15_000 });
  await expectUncovered(ref);
  await expect(dialog.getByRole("heading", { name: "What happens next" })).toBeVisible();
  await expect(dialog.getByText("You do not need to pay again.", { exact: false })).toBeVisible();
  // The form and its payment steps are gone: it cannot be mistaken for the form again.
  await expect(dialog.getByRole("heading", { name: "1. Pay by M-Pesa" })).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Submit confirmation" })).toHaveCount(0);
  // A link to the order's own page, where the payment's arrival shows.
  const reference = (await ref.textContent())!;
  await dialog.getByRole("link", { name: "See your order" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${reference}`);
  await expect(page.getByRole("region", { name: "Payment" })).toContainText("We have not seen this payment yet");
  await expectNoSidewaysScroll(page);
});

test("store: two items a row, a real button on each card, and the price beside 'Add to bag'", async ({ page, request, jsEnabled }) => {
  await page.goto("/merchandise");
  const cards = page.locator(".merch-card");
  const [a, b] = [(await cards.nth(0).boundingBox())!, (await cards.nth(1).boundingBox())!];
  expect(Math.abs(a.y - b.y), "the first two cards share a row").toBeLessThan(2);
  const cta = cards.first().locator(".merch-card-cta");
  expect((await cta.boundingBox())!.height).toBeGreaterThanOrEqual(40);

  const hoodie = await itemBySlug(request, "street-light-hoodie");
  const dialog = await openItem(page, hoodie, jsEnabled);
  const add = dialog.getByRole("button", { name: "Add to bag" });
  const price = dialog.locator(".item-add-price");
  await expect(price).toContainText(`KES ${hoodie.price.toLocaleString("en-KE")}`);
  const [p, q] = [(await price.boundingBox())!, (await add.boundingBox())!];
  expect(Math.abs(p.y + p.height / 2 - (q.y + q.height / 2)), "the price sits by the button").toBeLessThan(60);
});

test("store: the order's answer is the first thing on screen, its number readable and uncovered", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  test.setTimeout(60_000);
  const tote = await itemBySlug(request, "street-light-tote");
  const item = await openItem(page, tote, jsEnabled);
  const bag = await addToBag(page, item, {}, jsEnabled);
  await bag.getByRole("link", { name: "Checkout" }).click();
  const checkout = checkoutDialog(page);
  await expect(checkout).toBeVisible();
  if (jsEnabled) await hydrated(checkout.getByRole("button", { name: "Place order" }));

  // A mistake first: what to fix is at the top of the dialog, without scrolling.
  // (An address the browser accepts and the server does not, so the form is sent without JavaScript too.)
  await fillCheckout(checkout, { name: "Phone Shopper", email: "someone@localhost", code: uniqueCode(info) });
  await checkout.getByRole("button", { name: "Place order" }).click();
  if (!jsEnabled) {
    const summary = checkout.getByRole("alert").filter({ hasText: "Please check the fields marked below." });
    await expectUncovered(summary.getByText("Please check the fields marked below."));
    await summary.getByRole("link", { name: `Email: ${EMAIL_MESSAGE}` }).click();
  }
  const email = checkout.getByLabel("Email", { exact: true });
  await expect(email).toBeInViewport();
  await expect(checkout.getByText(EMAIL_MESSAGE, { exact: true })).toBeVisible();

  await fillCheckout(checkout, { email: uniqueEmail("phone-store") });
  await checkout.getByRole("button", { name: "Place order" }).click();
  const number = page.locator(".order-placed-ref strong");
  await expect(number).toHaveText(ORDER_ID, { timeout: 15_000 });
  await expectUncovered(number);
  await expectUncovered(page.getByRole("heading", { name: "Thank you! Your order is in." }));
  await expect(page.getByRole("heading", { name: "What happens next" })).toBeVisible();
  await expect(page.getByText(/If you have not paid yet, pay KES [\d,]+ by M-Pesa/)).toBeVisible();
  // An empty bag has no floating button to cover anything.
  await expect(page.locator(".bag-fab")).toHaveCount(0);
  const placed = (await number.textContent())!;
  await page.getByRole("link", { name: "See your order" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${placed}`);
  await expect(page.getByRole("region", { name: "Review" })).toContainText("Waiting for our team to check it.");
  await expectNoSidewaysScroll(page);
});

test("/badges: a search and a verification land at their results, not under the hero", async ({ page, jsEnabled }) => {
  await page.goto("/badges");
  const verify = page.getByLabel("Badge ID");
  await verify.fill("B5692");
  if (jsEnabled) await hydrated(page.getByRole("button", { name: "Verify" }));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.locator(".verify-verdict")).toBeInViewport();

  await page.goto("/badges");
  await page.getByLabel("Search badges").fill("achieng");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.locator(".badges-count")).toBeInViewport();
});
