import type { APIRequestContext } from "@playwright/test";
import { signInTo, uniqueCode } from "../support/e2e-badges";
import { activityFrom, outboxFor, withDb } from "../support/e2e-db";
import { ADMIN_KEY, BASE_URL } from "../support/e2e-env";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { approvedSupporter, expectOnFirstScreen, PHONE } from "../support/e2e-phone";
import { itemBySlug, merchOrderById, placeMerchOrderByApi } from "../support/e2e-store";
import { addPosts, ownPostFor, removePosts, withBlogListLock } from "../support/e2e-blog";

/**
 * Staff screens on a phone (360x740), JavaScript on and off: the staff menu is one row that
 * opens without script; nothing that cannot be undone happens on one tap ('Sign out
 * everywhere', 'Notify Subscribers', merch 'Mark pending' each ask first and say what they do);
 * the admin key can be shown while typed; a search finds an order in any state, with codes typed
 * as people type them, and its results are on the first screen.
 */
test.use({ viewport: PHONE });

/** A merch order placed through the legacy JSON call: one hoodie (it takes a colour and a size). */
async function placeMerchOrder(request: APIRequestContext, fields: { customerName: string; customerEmail: string; paymentReference: string }) {
  const hoodie = await itemBySlug(request, "street-light-hoodie");
  return placeMerchOrderByApi(request, {
    ...fields,
    items: [{ itemId: hoodie.id, name: hoodie.name, price: hoodie.price, quantity: 1, color: hoodie.colors[0], size: "L" }],
  });
}

test("the staff menu is one row and opens without JavaScript; 'Sign out everywhere' asks first, says what it does, and Cancel goes back", async ({
  page,
  jsEnabled: js,
  clientIp,
}) => {
  await signInTo(page, "/admin/merch-orders", js);
  // (The staff header's row; a wrong-key notice under it, when there is one, is not the menu.)
  const header = page.locator(".staff-header-inner");
  expect((await header.boundingBox())!.height, "one row, not a third of the screen").toBeLessThanOrEqual(72);
  const banner = page.getByRole("banner");
  await expect(banner.getByRole("navigation", { name: "Staff tools" })).toBeHidden();
  await expect(banner.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();

  const menu = banner.locator("summary", { hasText: "Menu" });
  expect((await menu.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await menu.click();
  const tools = banner.getByRole("navigation", { name: "Staff tools" });
  await expect(tools.getByRole("link", { name: "Door check-in" })).toBeVisible();
  await tools.getByRole("link", { name: "Badge orders" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/admin/badge-orders`);
  await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText("Badge Orders");

  // 'Sign out everywhere' is in the menu; one tap only asks.
  await menu.click();
  const everywhere = banner.getByRole("button", { name: "Sign out everywhere" });
  if (js) await hydrated(everywhere);
  await everywhere.click();
  await expect(page).toHaveURL(`${BASE_URL}/admin`);
  const ask = page.getByRole("group", { name: "Sign out every staff phone and computer?" });
  await expect(ask).toContainText("This signs out every phone and computer signed in with the admin key, door phones too, and this one.");
  await expect(ask).toContainText("Each must type the key again");
  await expectOnFirstScreen(ask.getByRole("button", { name: "Yes, sign out everywhere" }), "the confirming button");
  expect(activityFrom(clientIp).map((a) => a.type)).not.toContain("admin.sign_out_everywhere");
  // Cancel goes back to the screen it came from, still signed in.
  await ask.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/admin/badge-orders`);
  await expect(banner.getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
  expect(activityFrom(clientIp).map((a) => a.type)).toEqual(["admin.sign_in"]);
});

test("the admin key can be shown while it is typed, with or without JavaScript", async ({ page, jsEnabled: js }) => {
  await page.goto("/admin/event");
  const main = page.getByRole("main");
  const masked = main.getByLabel("Admin key");
  await expect(masked).toHaveAttribute("type", "password");
  const show = main.getByRole("checkbox", { name: "Show the key as I type it" });
  if (js) {
    await hydrated(show);
    await masked.fill("Typed-Before");
    await show.check();
    // The same box now shows what was typed.
    await expect(masked).toHaveAttribute("type", "text");
    await expect(masked).toHaveValue("Typed-Before");
    await masked.fill(ADMIN_KEY);
  } else {
    await show.check();
    // Without script a plain box takes the masked one's place.
    const plain = main.getByLabel("Key, shown as typed");
    await expect(plain).toBeVisible();
    await expect(plain).toHaveAttribute("type", "text");
    await expect(masked).toBeHidden();
    await plain.fill(ADMIN_KEY);
  }
  await main.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("banner").getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
  await expect(page).toHaveURL(`${BASE_URL}/admin/event`);
});

test("'Notify Subscribers' asks first, with how many people would get it; Cancel sends nothing", async ({ page, request, jsEnabled: js }, info) => {
  test.setTimeout(60_000);
  const post = ownPostFor(info, "notify-ask");
  await addPosts(request, [post]);
  try {
    await signInTo(page, "/blogs/admin", js);
    const runs = () => withDb((db) => (db.prepare("select count(*) as n from blog_notifications where slug = ?").get(post.slug) as { n: number }).n);
    const active = () => withDb((db) => (db.prepare("select count(*) as n from subscribers where status = 'active'").get() as { n: number }).n);
    await withBlogListLock(async () => {
      await page.goto("/blogs/admin");
      const mine = page.getByRole("group", { name: post.title });
      const notify = mine.getByRole("button", { name: "Notify Subscribers" });
      if (js) await hydrated(notify);
      const before = active();
      await notify.click();
      const ask = mine.getByRole("group", { name: /^Email this post to \d+ subscribers?\?$/ });
      await expect(ask).toBeVisible();
      const people = Number((await ask.getAttribute("aria-labelledby").then((id) => page.locator(`#${id}`).innerText())).match(/\d+/)![0]);
      expect(people).toBeGreaterThanOrEqual(Math.min(before, active()));
      expect(people).toBeLessThanOrEqual(Math.max(before, active()));
      const yes = ask.getByRole("button", { name: /^Send to \d+ subscribers?$/ });
      await expect(yes).toHaveText(`Send to ${people} ${people === 1 ? "subscriber" : "subscribers"}`);
      await expectOnFirstScreen(yes, "the confirming button");
      expect(runs(), "nothing is sent on the first tap").toBe(0);
      await ask.getByRole("link", { name: "Cancel" }).click();
      await expect(ask).toBeHidden();
      expect(runs()).toBe(0);
    });
  } finally {
    // Once more if the first try meets a keep-alive connection the site closed while the page worked (5 s).
    await removePosts(request, [post.slug]).catch(() => removePosts(request, [post.slug]));
  }
});

test("merch: 'Mark pending' is hidden on a pending order and asks first; approving again sends no second 'confirmed' email", async ({
  page,
  request,
  jsEnabled: js,
  uniqueEmail,
}, info) => {
  test.setTimeout(60_000);
  const email = uniqueEmail("mark-pending");
  const id = await placeMerchOrder(request, { customerName: "Achieng Twice", customerEmail: email, paymentReference: uniqueCode(info) });
  const main = await signInTo(page, `/admin/merch-orders?q=${id}`, js);
  const card = main.getByRole("article", { name: id });
  const pill = card.locator(".merch-order-head .pill");
  const status = main.getByRole("status");
  await expect(pill).toHaveText("Pending review");
  await expect(card.getByRole("button", { name: "Mark pending" })).toHaveCount(0);

  const approve = card.getByRole("button", { name: "Approve" });
  if (js) await hydrated(approve);
  await approve.click();
  await expect(status).toHaveText(`Order ${id} approved.`);
  await expect(pill).toHaveText("Approved");

  // One tap on 'Mark pending' only asks, saying what it undoes.
  await card.getByRole("button", { name: "Mark pending" }).click();
  const ask = card.getByRole("group", { name: new RegExp(`^Mark order ${id} pending again\\? It was approved and Achieng Twice was emailed that it is confirmed\\.`) });
  await expect(ask).toBeVisible();
  await expectOnFirstScreen(ask.getByRole("button", { name: "Yes, mark pending" }), "the confirming button");
  await expect(pill).toHaveText("Approved");
  expect(merchOrderById(id)).toMatchObject({ status: "approved" });
  await ask.getByRole("button", { name: "Yes, mark pending" }).click();
  await expect(status).toHaveText(`Order ${id} marked pending review.`);
  await expect(pill).toHaveText("Pending review");
  await expect(card.getByRole("button", { name: "Mark pending" })).toHaveCount(0);

  // Approved again: no second 'confirmed' email, and staff are told so.
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(status).toHaveText(new RegExp(`^Order ${id} approved\\. Its 'confirmed' email was sent on .+ EAT, so it was not sent again\\.$`));
  await expect(pill).toHaveText("Approved");
  expect(outboxFor(email).filter((r) => r.to_address === email).map((r) => r.kind)).toEqual(["merch.received", "merch.approved"]);
});

test("badge orders: a search finds an order in any state and links to it; a code typed with a space finds it; results on the first screen", async ({
  page,
  request,
  jsEnabled: js,
}, info) => {
  const { id, name, code } = await approvedSupporter(request, info, { first: "Samuel" });
  const main = await signInTo(page, "/admin/badge-orders", js);
  const search = main.getByRole("searchbox", { name: "Search orders" });
  await expectOnFirstScreen(search, "the search box");
  await search.fill(name);
  await search.press("Enter");
  // The Pending tab (the default) has no match; the screen says where it is, with a link.
  await expect(page).toHaveURL(`${BASE_URL}/admin/badge-orders?status=pending&q=${encodeURIComponent(name).replace(/%20/g, "+")}`);
  const elsewhere = main.getByText("None in Pending. Found 1 in Approved.");
  await expect(elsewhere).toBeVisible();
  await expectOnFirstScreen(elsewhere, "the 'found in Approved' line");
  const filters = main.getByRole("navigation", { name: "Filter by status" });
  await expect(filters.getByRole("link", { name: "Approved" })).toHaveText("Approved (1)");
  await expect(filters.getByRole("link", { name: "Pending" })).toHaveText("Pending (0)");
  const link = elsewhere.getByRole("link", { name: "1 in Approved" });
  if (js) await hydrated(link);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/admin/badge-orders\\?status=approved&q=`));
  const row = main.locator("tbody tr").filter({ hasText: id });
  await expect(row).toHaveCount(1);
  await expectOnFirstScreen(row.locator('td[data-label="Supporter"] strong'), "the order found");

  // An M-Pesa code typed with a space (as read off a phone) finds the same order.
  await search.fill(`${code.slice(0, 4)} ${code.slice(4).toLowerCase()}`);
  await search.press("Enter");
  await expect(main.locator("tbody tr")).toHaveCount(1);
  await expect(main.locator("tbody tr").first()).toContainText(id);
  await expectOnFirstScreen(main.locator("tbody tr").first().locator('td[data-label="Supporter"] strong'), "the order found by code");
});

test("merch orders: a code typed with a space finds the order, shown on the first screen", async ({ page, request, jsEnabled: js, uniqueEmail }, info) => {
  const code = uniqueCode(info);
  const id = await placeMerchOrder(request, { customerName: "Code Spaced", customerEmail: uniqueEmail("merch-code"), paymentReference: code });
  const main = await signInTo(page, "/admin/merch-orders", js);
  const search = main.getByRole("searchbox", { name: "Filter orders" });
  await expectOnFirstScreen(search, "the search box");
  await search.fill(`${code.slice(0, 4).toLowerCase()} ${code.slice(4)}`);
  await main.getByRole("button", { name: "Load orders" }).click();
  await expect(main.getByRole("article")).toHaveCount(1);
  const card = main.getByRole("article", { name: id });
  await expectOnFirstScreen(card.locator(".merch-order-head"), "the order found");
  await expectOnFirstScreen(card.locator(".merch-order-facts > div").first(), "the customer's name");
});
