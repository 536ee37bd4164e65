import type { Locator, Page } from "@playwright/test";
import { placeOrderByApi, uniqueCode } from "../support/e2e-badges";
import { BASE_URL } from "../support/e2e-env";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { waitForMail } from "../support/e2e-mail";
import {
  addToBag,
  bagButton,
  bagCount,
  bagDialog,
  bagLine,
  catalogue,
  checkoutDialog,
  CODE_MESSAGE,
  CODE_USED,
  EMAIL_MESSAGE,
  fillCheckout,
  itemBySlug,
  itemDialog,
  lineName,
  MERCH_INBOX,
  merchOrderById,
  merchOrdersByEmail,
  money,
  openItem,
  placedOrderId,
  placeMerchOrderByApi,
  removeName,
  STORE,
} from "../support/e2e-store";

const STORE_URL = `${BASE_URL}${STORE}`;

/** Presses a button that posts to the store and waits for the server's answer (a fetcher, or a plain form). */
async function postFrom(page: Page, button: Locator) {
  const answered = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(STORE),
  );
  await button.click();
  return answered;
}

/** Tags what `locator` finds now, so `fresh()` later finds only what was rendered after. */
async function markStale(locator: Locator) {
  await locator.evaluateAll((els) => els.forEach((e) => e.setAttribute("data-e2e-stale", "")));
}

test("store: hero facts and the grid; the sold-out mug shows 'Restocking' and cannot be added", async ({
  page,
  request,
  jsEnabled,
  problems,
}) => {
  const items = (await catalogue(request)).filter((i) => i.id.startsWith("SL-")); // the seeded ones
  const mug = items.find((i) => i.slug === "enamel-mug")!;
  expect(mug.available).toBe(false);
  expect(items.filter((i) => i.available).length).toBeGreaterThanOrEqual(2);

  const res = await page.goto(STORE);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Wear the light");
  await expect(page.locator(".store-facts").getByRole("listitem")).toHaveText([
    "46,000+ street families supported",
    "Every purchase funds the outreach",
    "Delivery zones: Nairobi & metropolitan",
  ]);
  await expect(page.getByRole("list", { name: "How ordering works" })).toContainText("paybill 880100, account 321325");

  const grid = page.locator(".merch-grid");
  for (const item of items) {
    const card = grid.getByRole("listitem").filter({ has: page.getByRole("heading", { name: item.name, exact: true }) });
    await expect(card, item.slug).toHaveCount(1);
    await expect(card.getByRole("link", { name: item.name, exact: true })).toHaveAttribute("href", `${STORE}?item=${item.slug}`);
    await expect(card).toContainText(money(item.price, item.currency));
    await expect(card.getByText("Restocking", { exact: true }), item.slug).toHaveCount(item.available ? 0 : 1);
  }

  // A new visitor's bag is empty: the floating button says 0, there is no header Cart button.
  await expect(bagButton(page)).toHaveCount(0); // an empty bag has no floating button
  await expect(page.locator(".store-cart")).toHaveCount(0);

  // The mug's dialog explains and offers no way to add it.
  const mugLink = page.getByRole("link", { name: mug.name, exact: true });
  if (jsEnabled) await hydrated(mugLink);
  await mugLink.click();
  await expect(page).toHaveURL(`${STORE_URL}?item=${mug.slug}`);
  const dialog = itemDialog(page, mug.name);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("This item is restocking and cannot be ordered right now.")).toBeVisible();
  await expect(dialog.getByText("Restocking", { exact: true })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Add to bag" })).toHaveCount(0);
  await expect(dialog.getByRole("spinbutton")).toHaveCount(0);
  if (jsEnabled) {
    await page.waitForLoadState("networkidle");
    expect(problems.pageErrors, "uncaught errors").toEqual([]);
    expect(problems.console, "console errors").toEqual([]);
    expect(await problems.csp(), "CSP violations").toEqual([]);
  }

  // Nor does the server take it when the form is forged.
  const forged = await page.request.post(`${STORE}?item=${mug.slug}`, {
    form: { intent: "add", itemId: mug.id, quantity: "1" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(409);
  await page.goto(`${STORE}?bag=1`);
  await expect(bagDialog(page).getByText("Your bag is empty.")).toBeVisible();
  await expect(bagButton(page)).toHaveCount(0); // an empty bag has no floating button
});

test("store: choose variants, merge, change and remove lines, reload, check out; the order is stored and mailed", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  test.setTimeout(90_000);
  const hoodie = await itemBySlug(request, "street-light-hoodie");
  const tote = await itemBySlug(request, "street-light-tote");
  // The seeded shapes this journey relies on.
  expect(hoodie.colors.map((c) => c.label)).toEqual(["Night Blue", "Lamp Amber", "Charcoal"]);
  expect(hoodie.sizes).toEqual(["S", "M", "L", "XL", "2XL"]);
  expect(tote.colors).toEqual([]);
  expect(tote.sizes).toEqual(["One size"]);

  const amberM = lineName(hoodie.name, "Lamp Amber", "M");
  const charcoalXL = lineName(hoodie.name, "Charcoal", "XL");
  const toteLine = lineName(tote.name, undefined, "One size");
  const qty = (bag: Locator, label: string) => bagLine(page, bag, label).locator(".qty-value");

  // Opened by its address: the first colour and size chosen, quantity 1.
  let dialog = await openItem(page, hoodie, jsEnabled);
  await expect(dialog.getByText(money(hoodie.price), { exact: true })).toBeVisible();
  await expect(dialog.getByRole("radio", { name: "Night Blue", exact: true })).toBeChecked();
  await expect(dialog.getByRole("radio", { name: "S", exact: true })).toBeChecked();
  await expect(dialog.getByLabel("Quantity", { exact: true })).toHaveValue("1");
  if (jsEnabled) await expect(dialog.getByRole("button", { name: "Decrease quantity" })).toBeDisabled();
  let bag = await addToBag(page, dialog, { color: "Lamp Amber", size: "M" }, jsEnabled);
  await expect(qty(bag, amberM)).toHaveText("Quantity 1");
  await expect(bagCount(page)).toHaveText("1");
  await expect(page.locator(".store-cart")).toHaveText(/^Cart 1\s*item$/);

  // A second variant, opened from the grid: the choices start again at the first ones.
  await bag.getByRole("link", { name: "Keep browsing" }).click();
  await expect(bag).toBeHidden();
  await expect(page).toHaveURL(STORE_URL);
  await page.getByRole("link", { name: hoodie.name, exact: true }).click();
  await expect(page).toHaveURL(`${STORE_URL}?item=${hoodie.slug}`);
  dialog = itemDialog(page, hoodie.name);
  await expect(dialog.getByRole("radio", { name: "Night Blue", exact: true })).toBeChecked();
  await expect(dialog.getByRole("radio", { name: "S", exact: true })).toBeChecked();
  await expect(dialog.getByLabel("Quantity", { exact: true })).toHaveValue("1");
  bag = await addToBag(page, dialog, { color: "Charcoal", size: "XL", quantity: 2 }, jsEnabled);
  await expect(qty(bag, charcoalXL)).toHaveText("Quantity 2");

  // The tote: no colours, its one size chosen already.
  await bag.getByRole("link", { name: "Keep browsing" }).click();
  await expect(bag).toBeHidden();
  await page.getByRole("link", { name: tote.name, exact: true }).click();
  dialog = itemDialog(page, tote.name);
  await expect(dialog.getByRole("radio", { name: "One size", exact: true })).toBeChecked();
  await expect(dialog.getByRole("group", { name: /^Colour/ })).toHaveCount(0);
  bag = await addToBag(page, dialog, {}, jsEnabled);
  await expect(qty(bag, toteLine)).toHaveText("Quantity 1");

  // The same variant again merges into its line.
  dialog = await openItem(page, hoodie, jsEnabled);
  bag = await addToBag(page, dialog, { color: "Lamp Amber", size: "M" }, jsEnabled);
  await expect(bag.getByRole("listitem")).toHaveCount(3);
  await expect(qty(bag, amberM)).toHaveText("Quantity 2");
  await expect(bag.locator(".bag-count")).toHaveText("5 items");
  await expect(bagCount(page)).toHaveText("5");

  // '+' and '−'; '−' stops at 1; Remove.
  await postFrom(page, bagLine(page, bag, toteLine).getByRole("button", { name: `One more: ${toteLine}` }));
  await expect(qty(bag, toteLine)).toHaveText("Quantity 2");
  const fewerAmber = bagLine(page, bag, amberM).getByRole("button", { name: `One fewer: ${amberM}` });
  await postFrom(page, fewerAmber);
  await expect(qty(bag, amberM)).toHaveText("Quantity 1");
  await expect(fewerAmber).toBeDisabled();
  await postFrom(page, bagLine(page, bag, charcoalXL).getByRole("button", { name: removeName(charcoalXL) }));
  await expect(bagLine(page, bag, charcoalXL)).toHaveCount(0);
  await expect(bag.getByRole("listitem")).toHaveCount(2);

  // The total is the catalogue's prices times the quantities.
  const total = hoodie.price * 1 + tote.price * 2;
  const checkBag = async (b: Locator) => {
    await expect(qty(b, amberM)).toHaveText("Quantity 1");
    await expect(qty(b, toteLine)).toHaveText("Quantity 2");
    await expect(bagLine(page, b, amberM).locator(".bag-line-subtotal")).toHaveText(`Subtotal ${money(hoodie.price)}`);
    await expect(bagLine(page, b, toteLine).locator(".bag-line-subtotal")).toHaveText(`Subtotal ${money(tote.price * 2)}`);
    await expect(b.locator(".bag-total")).toHaveText(`Total ${money(total)}`);
    await expect(b.locator(".bag-count")).toHaveText("3 items");
    await expect(bagCount(page)).toHaveText("3");
  };
  await checkBag(bag);

  // The bag lives on the server: a reload shows the same lines.
  await page.reload();
  await expect(page).toHaveURL(`${STORE_URL}?bag=1`);
  bag = bagDialog(page);
  await expect(bag).toBeVisible();
  await checkBag(bag);

  // Checkout: what to pay and where.
  const toCheckout = bag.getByRole("link", { name: "Checkout" });
  if (jsEnabled) await hydrated(toCheckout);
  await toCheckout.click();
  await expect(page).toHaveURL(`${STORE_URL}?checkout=1`);
  const checkout = checkoutDialog(page);
  await expect(checkout).toBeVisible();
  const pay = checkout.getByRole("region", { name: "1. Pay by M-Pesa" });
  await expect(pay.locator("dd")).toHaveText(["880100", "321325", money(total)]);
  await expect(pay).toContainText(`business number 880100, account number 321325, amount ${money(total)}`);
  const summary = checkout.getByRole("region", { name: "Your order" });
  await expect(summary.getByRole("listitem")).toHaveText([
    `${amberM} × 1${money(hoodie.price)}`,
    `${toteLine} × 2${money(tote.price * 2)}`,
  ]);
  await expect(summary.locator(".bag-total")).toHaveText(`Total ${money(total)}`);

  // A bad email and a blank code: the spec's words, everything typed kept. Without JavaScript
  // the browser's own checks stand, so send what passes them but not the spec's rules.
  const name = `Achieng Shopper ${jsEnabled ? "On" : "Off"}`;
  const phone = "+254 712 345 678";
  const notes = "Deliver to Westlands after 5pm.";
  const bad = jsEnabled ? { email: "not-an-email", code: "" } : { email: "someone@localhost", code: "   " };
  await fillCheckout(checkout, { name, email: bad.email, phone, notes, code: bad.code });
  const placeOrder = checkout.getByRole("button", { name: "Place order" });
  await placeOrder.click();
  const emailField = checkout.getByLabel("Email", { exact: true });
  const codeField = checkout.getByLabel("M-Pesa confirmation code");
  // (exact: without JavaScript the summary at the top links to each field with its message too)
  await expect(checkout.getByText(EMAIL_MESSAGE, { exact: true })).toBeVisible();
  await expect(checkout.getByText(CODE_MESSAGE, { exact: true })).toBeVisible();
  await expect(emailField).toHaveAttribute("aria-invalid", "true");
  await expect(codeField).toHaveAttribute("aria-invalid", "true");
  await expect(emailField).toHaveAccessibleDescription(EMAIL_MESSAGE);
  await expect(checkout.getByLabel("Full name")).toHaveValue(name);
  await expect(emailField).toHaveValue(bad.email);
  await expect(checkout.getByLabel("Phone (optional)")).toHaveValue(phone);
  await expect(checkout.getByLabel(/^Notes/)).toHaveValue(notes);
  await expect(codeField).toHaveValue(bad.code);
  await expect(summary.getByRole("listitem")).toHaveCount(2);
  if (jsEnabled) await expect(emailField).toBeFocused();

  // A valid order, the code typed in lower case as on a phone.
  const email = uniqueEmail("merch");
  const code = uniqueCode(info);
  await fillCheckout(checkout, { email, code: code.toLowerCase() });
  if (jsEnabled) await expect(codeField).toHaveValue(code); // upper-cased as typed
  await placeOrder.click();
  const id = await placedOrderId(page);
  await expect(checkout).toBeHidden();
  await expect(bagButton(page)).toHaveCount(0); // an empty bag has no floating button
  await expect(page.locator(".store-cart")).toHaveCount(0);
  await page.goto(`${STORE}?bag=1`);
  await expect(bagDialog(page).getByText("Your bag is empty.")).toBeVisible();
  await expect(bagDialog(page).getByRole("link", { name: "Checkout" })).toHaveCount(0);
  // Checkout by its address with nothing in the bag: nothing to send.
  await page.goto(`${STORE}?checkout=1`);
  await expect(checkoutDialog(page).getByText("Your bag is empty. Add something from the store first.")).toBeVisible();
  await expect(checkoutDialog(page).getByRole("button", { name: "Place order" })).toBeDisabled();

  // Stored as the server priced it.
  const row = merchOrderById(id);
  expect(row).toMatchObject({
    customer_name: name,
    customer_email: email,
    customer_phone: phone,
    notes,
    payment_reference: code,
    total,
    currency: "KES",
    status: "pending",
    reviewed_at: null,
    staff_notes: "",
  });
  expect(JSON.parse(row!.items)).toEqual([
    {
      itemId: hoodie.id,
      name: hoodie.name,
      price: hoodie.price,
      quantity: 1,
      color: hoodie.colors.find((c) => c.label === "Lamp Amber"),
      size: "M",
    },
    { itemId: tote.id, name: tote.name, price: tote.price, quantity: 2, color: null, size: "One size" },
  ]);
  expect(merchOrdersByEmail(email)).toHaveLength(1);

  // The customer's receipt and the merch team's notice.
  const received = await waitForMail((m) => m.to.includes(email) && m.subject.includes(id));
  expect(received.subject).toBe(`We received your merch order ${id}`);
  expect(received.text).toContain(`Your order ${id} is pending review.`);
  expect(received.text).toContain(`1 × ${hoodie.name}, Lamp Amber, M — ${money(hoodie.price)}`);
  expect(received.text).toContain(`2 × ${tote.name}, One size — ${money(tote.price * 2)}`);
  expect(received.text).toContain(`Total: ${money(total)} · M-Pesa code: ${code}`);
  expect(received.text).toContain("paybill 880100, account 321325");
  const notice = await waitForMail((m) => m.to.includes(MERCH_INBOX) && m.subject.includes(id));
  expect(notice.subject).toBe(`New merch order ${id}: ${money(total)}`);
  expect(notice.replyTo).toEqual([email]);
  expect(notice.text).toContain(`From ${name} <${email}>, ${phone}.`);
  expect(notice.text).toContain(`Notes: ${notes}`);
  expect(notice.text).toContain(`M-Pesa code: ${code}`);
  expect(notice.text).toContain(`${BASE_URL}/admin/merch-orders`);
});

test("store: a payment code already used (a badge order, an earlier merch order) is refused; form and bag kept", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  test.setTimeout(60_000);
  const tote = await itemBySlug(request, "street-light-tote");
  const badgeCode = uniqueCode(info);
  await placeOrderByApi(request, { tierKey: "t1", name: "Badge Payer", email: uniqueEmail("badgepay"), paymentReference: badgeCode });
  const merchCode = uniqueCode(info);
  await placeMerchOrderByApi(request, {
    customerName: "Earlier Shopper",
    customerEmail: uniqueEmail("earlier"),
    paymentReference: merchCode,
    items: [{ itemId: tote.id, quantity: 1, size: "One size" }],
  });

  const dialog = await openItem(page, tote, jsEnabled);
  const bag = await addToBag(page, dialog, {}, jsEnabled);
  await bag.getByRole("link", { name: "Checkout" }).click();
  const checkout = checkoutDialog(page);
  await expect(checkout).toBeVisible();

  const email = uniqueEmail("again");
  const alerts = checkout.getByRole("alert");
  // The badge's code typed in lower case, then the earlier merch order's code: both refused.
  for (const code of [badgeCode.toLowerCase(), merchCode]) {
    await markStale(alerts);
    await fillCheckout(checkout, { name: "Second Payer", email, phone: "0711 000 222", notes: "Gate B.", code });
    await postFrom(page, checkout.getByRole("button", { name: "Place order" }));
    const alert = checkout.locator('[role="alert"]:not([data-e2e-stale])');
    await expect(alert).toHaveText(CODE_USED);
    await expect(alert).toContainText("already been used");
    await expect(checkout.getByLabel("Full name")).toHaveValue("Second Payer");
    await expect(checkout.getByLabel("Email", { exact: true })).toHaveValue(email);
    await expect(checkout.getByLabel("Phone (optional)")).toHaveValue("0711 000 222");
    await expect(checkout.getByLabel(/^Notes/)).toHaveValue("Gate B.");
    await expect(checkout.getByLabel("M-Pesa confirmation code")).toHaveValue(jsEnabled ? code.toUpperCase() : code);
  }
  await expect(page.getByRole("status").filter({ hasText: /^Thank you!/ })).toHaveCount(0);
  await expect(page).toHaveURL(`${STORE_URL}?checkout=1`);
  await expect(checkout.getByRole("region", { name: "Your order" }).getByRole("listitem")).toHaveText([
    `${lineName(tote.name, undefined, "One size")} × 1${money(tote.price)}`,
  ]);
  await expect(bagCount(page)).toHaveText("1");
  expect(merchOrdersByEmail(email)).toHaveLength(0);
});

test.describe("with JavaScript", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("store: 'Copy link' copies the item's share page; Escape closes the item and the address loses ?item=", async ({
    page,
    request,
    jsEnabled,
    problems,
  }) => {
    test.skip(!jsEnabled, "the copy button and the modal's Escape need JavaScript");
    const hoodie = await itemBySlug(request, "street-light-hoodie");
    const dialog = await openItem(page, hoodie, true);
    await dialog.getByRole("button", { name: "Copy link" }).click();
    await expect(dialog.getByRole("status")).toHaveText("Merch share link copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${BASE_URL}/share/merchandise/${hoodie.slug}.html`,
    );

    // Opened by its address, Escape replaces it with the bare store.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(STORE_URL);

    // Opened from the grid, Escape goes back to the store too, and the Back button agrees.
    await page.getByRole("link", { name: hoodie.name, exact: true }).click();
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(`${STORE_URL}?item=${hoodie.slug}`);
    await expect(dialog.getByRole("radio", { name: "Night Blue", exact: true })).toBeChecked();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(STORE_URL);
    await page.goForward();
    await expect(dialog).toBeVisible();
    await page.goBack();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(STORE_URL);
    expect(problems.pageErrors, "uncaught errors").toEqual([]);
    expect(problems.console, "console errors").toEqual([]);
    expect(await problems.csp(), "CSP violations").toEqual([]);
  });
});
