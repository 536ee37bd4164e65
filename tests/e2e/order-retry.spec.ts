import { expect, test } from "../support/e2e-fixtures";
import { waitForMail, mailFor } from "../support/e2e-mail";
import { badgeOrdersByEmail, fillOrder, openTierDialog, ORDER_REF, successReference, uniqueCode } from "../support/e2e-badges";
import { addToBag, checkoutDialog, fillCheckout, itemBySlug, merchOrdersByEmail, openItem, STORE } from "../support/e2e-store";

// On a mobile network the answer to an order is often lost after the order was stored. The
// payer sends the same confirmation again and is shown the order we already have, with its
// reference and page: never told that their code was used by someone else.

const REPLAYED = "We already have your order";

test("a confirmation sent again is answered with the stored order: its reference, its page, one order, one email", async ({
  page,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const email = uniqueEmail("retry");
  const code = uniqueCode(info);
  const order = { name: "Wanjiku Retry", email, code };

  let dialog = await openTierDialog(page, "Big Friend", jsEnabled);
  await fillOrder(dialog, order);
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  const reference = await successReference(dialog);
  const orderLink = await dialog.getByRole("link", { name: "See your order" }).getAttribute("href");
  expect(orderLink).toContain(`/orders/${reference}?t=`);

  // The same form again, as a payer who never saw that answer would send it.
  dialog = await openTierDialog(page, "Big Friend", jsEnabled);
  await fillOrder(dialog, { ...order, code: code.toLowerCase() });
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  await expect(dialog.getByText(REPLAYED)).toBeVisible({ timeout: 15_000 });
  await expect(dialog.locator(".order-ref")).toHaveText(reference);
  await expect(dialog.getByRole("link", { name: "See your order" })).toHaveAttribute("href", orderLink!);
  await expect(dialog.getByText("already been used")).toHaveCount(0);
  await expect(page.locator("#tiers").getByRole("status")).toContainText(`${REPLAYED}`);
  await expect(page.locator("#tiers").getByRole("status")).toContainText(`Your reference: ${reference}.`);

  // The order page the link opens is that order.
  await page.goto(orderLink!);
  await expect(page.getByText(reference).first()).toBeVisible();

  expect(badgeOrdersByEmail(email)).toHaveLength(1);
  await waitForMail((m) => m.to.includes(email));
  // Give a second message (there must be none) time to arrive.
  await page.waitForTimeout(1_000);
  expect(await mailFor(email)).toHaveLength(1);
});

test("a confirmation whose answer was lost on the way: sent again, the payer sees the order we stored", async ({
  page,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const email = uniqueEmail("lost");
  const code = uniqueCode(info);
  let lost = 0;
  // The server stores the order and answers; the answer never reaches the phone.
  await page.route(
    (url) => url.pathname.startsWith("/event"),
    async (route) => {
      if (route.request().method() !== "POST" || lost > 0) return route.continue();
      lost += 1;
      await route.fetch();
      await route.abort("connectionreset");
    },
  );

  let dialog = await openTierDialog(page, "Friends Badge", jsEnabled);
  await fillOrder(dialog, { name: "Otieno Lost", email, code });
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  await expect.poll(() => badgeOrdersByEmail(email).length).toBe(1);
  const [stored] = badgeOrdersByEmail(email);

  if (jsEnabled) {
    // The form is still there, filled in, with the network message: press Submit again.
    await expect(dialog.getByText("Something went wrong while submitting.")).toBeVisible();
  } else {
    // Without JavaScript the browser shows its own error page: back to the form, fill it in again.
    await page.waitForURL((url) => url.protocol === "chrome-error:");
    dialog = await openTierDialog(page, "Friends Badge", jsEnabled);
    await fillOrder(dialog, { name: "Otieno Lost", email, code });
  }
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  await expect(dialog.getByText(REPLAYED)).toBeVisible({ timeout: 15_000 });
  await expect(dialog.locator(".order-ref")).toHaveText(ORDER_REF);
  await expect(dialog.locator(".order-ref")).toHaveText(stored!.id);
  await expect(dialog.getByRole("link", { name: "See your order" })).toHaveAttribute("href", new RegExp(`^/orders/${stored!.id}\\?t=`));
  expect(badgeOrdersByEmail(email)).toHaveLength(1);
});

test("a merch checkout whose answer was lost: sent again, the shopper sees the order we stored", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const tote = await itemBySlug(request, "street-light-tote");
  const email = uniqueEmail("lostmerch");
  const code = uniqueCode(info);
  const item = await openItem(page, tote, jsEnabled);
  const bag = await addToBag(page, item, {}, jsEnabled);
  await bag.getByRole("link", { name: "Checkout" }).click();
  const checkout = checkoutDialog(page);
  await expect(checkout).toBeVisible();
  await fillCheckout(checkout, { name: "Akinyi Lost", email, code });

  let lost = 0;
  await page.route(
    (url) => url.pathname.startsWith(STORE),
    async (route) => {
      if (route.request().method() !== "POST" || lost > 0) return route.continue();
      lost += 1;
      await route.fetch();
      await route.abort("connectionreset");
    },
  );
  await checkout.getByRole("button", { name: "Place order" }).click();
  await expect.poll(() => merchOrdersByEmail(email).length).toBe(1);
  const [stored] = merchOrdersByEmail(email);

  if (jsEnabled) {
    // The form stays, with the network message; its bag is now empty, but it can be sent again.
    await expect(checkout.getByRole("alert")).toBeVisible();
    await checkout.getByRole("button", { name: "Place order" }).click();
  } else {
    // The browser's error page; reloading it sends the same form again.
    await page.waitForURL((url) => url.protocol === "chrome-error:");
    await page.reload();
  }
  const placed = page.locator(".order-placed");
  await expect(placed.getByText(REPLAYED)).toBeVisible({ timeout: 15_000 });
  await expect(placed.locator(".order-placed-ref strong")).toHaveText(stored!.id);
  await expect(placed.getByRole("link", { name: "See your order" })).toHaveAttribute("href", new RegExp(`^/orders/${stored!.id}\\?t=`));
  expect(merchOrdersByEmail(email)).toHaveLength(1);
});
