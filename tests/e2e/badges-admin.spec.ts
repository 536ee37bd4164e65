import { expect, holdPosts, test } from "../support/e2e-fixtures";
import { BASE_URL } from "../support/e2e-env";
import { waitForMail } from "../support/e2e-mail";
import {
  badgeOrderById,
  imageInfo,
  orderFile,
  placeOrderByApi,
  portraitImage,
  signInTo,
  uniqueCode,
} from "../support/e2e-badges";

const SCREEN = "/admin/badge-orders";
const GENERATED = "Badge and poster attached to order.";
const APPROVED = "Order approved and email triggered.";
const REJECTED = "Order rejected.";
/** The review status (the payment state has a pill of its own beside the code). */
const REVIEW_PILL = 'td[data-label="Status"] .pill';

test("staff: find a pending order, generate its kit, approve it; the supporter gets the badge (PNG) and poster (JPEG) by mail", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
  problems,
}, info) => {
  test.setTimeout(60_000);
  const email = uniqueEmail("kit");
  const code = uniqueCode(info);
  const portrait = await portraitImage("png", 640, 640);
  const id = await placeOrderByApi(request, {
    tierKey: "t3",
    name: "Kit Receiver",
    email,
    phone: "+254 722 000 333",
    paymentReference: code,
    hardCopy: true,
    notes: "Front row please.",
    portraitDataUrl: `data:image/png;base64,${portrait.buffer.toString("base64")}`,
  });

  const main = await signInTo(page, SCREEN, jsEnabled);
  await expect(page).toHaveURL(`${BASE_URL}${SCREEN}`);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Badge Orders");
  // Pending is the default filter.
  const filters = main.getByRole("navigation", { name: "Filter by status" });
  await expect(filters.getByRole("link", { name: "Pending" })).toHaveAttribute("aria-current", "page");

  // Search by the supporter's email; Enter runs it.
  const search = main.getByRole("searchbox", { name: "Search orders" });
  await expect(search).toHaveAttribute("placeholder", "name, email, Mpesa code, tier, or order id");
  await search.fill(email);
  await search.press("Enter");
  await expect(page).toHaveURL(`${BASE_URL}${SCREEN}?status=pending&q=${encodeURIComponent(email)}`);
  const table = main.getByRole("table");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(1);
  const row = rows.filter({ hasText: id });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell").first()).toContainText("Kit Receiver");
  await expect(row).toContainText(email);
  await expect(row).toContainText("+254 722 000 333");
  await expect(row).toContainText("Hard-copy requested");
  await expect(row).toContainText("Big Friend");
  await expect(row).toContainText("KES 1,300");
  await expect(row.locator("code")).toHaveText(code);
  await expect(row).toContainText("Front row please.");
  await expect(row.locator(REVIEW_PILL)).toHaveText("Pending");

  const approve = row.getByRole("button", { name: "Approve" });
  const generate = row.locator('button[value="generate"]');
  // Approving draws a missing kit itself; 'Generate assets' draws it to look at first.
  await expect(approve).toBeEnabled();
  await expect(row.getByRole("link", { name: /^Badge/ })).toHaveCount(0);

  const status = main.getByRole("status");
  if (jsEnabled) {
    const release = await holdPosts(page, SCREEN);
    await generate.click();
    await expect(generate).toHaveText("Generating badge kit…");
    await expect(status).toHaveText("Generating badge kit…");
    release();
  } else {
    await generate.click();
  }
  await expect(status).toHaveText(GENERATED, { timeout: 30_000 });
  await expect(generate).toHaveText("Generate assets");
  const badgeLink = row.getByRole("link", { name: /^Badge/ });
  const posterLink = row.getByRole("link", { name: /^Poster/ });
  await expect(badgeLink).toHaveAttribute("href", new RegExp(`^/admin/badge-orders/${id}/badge\\.png\\?t=`));
  await expect(posterLink).toHaveAttribute("href", new RegExp(`^/admin/badge-orders/${id}/poster\\.jpg\\?t=`));
  await expect(approve).toBeEnabled();

  await approve.click();
  await expect(status).toHaveText(APPROVED, { timeout: 15_000 });
  await expect(row.locator(REVIEW_PILL)).toHaveText("Approved");
  await expect(approve).toBeDisabled();
  expect(badgeOrderById(id)).toMatchObject({ status: "approved", badge_file: "badge.png", poster_file: "poster.jpg" });

  // The kit as staff see it: a 1080x1080 PNG badge (its assertion baked in) and JPEG poster (fetched with the signed-in context).
  const images: Record<string, Buffer> = {};
  for (const [kind, link, format] of [["badge", badgeLink, "png"], ["poster", posterLink, "jpeg"]] as const) {
    const res = await page.request.get((await link.getAttribute("href"))!);
    expect(res.status(), kind).toBe(200);
    expect(res.headers()["content-type"], kind).toBe(`image/${format}`);
    images[kind] = await res.body();
    expect(await imageInfo(images[kind]!), kind).toEqual({ format, width: 1080, height: 1080 });
  }
  expect(images.badge!.equals(images.poster!), "the badge and the poster differ").toBe(false);
  // What the server keeps is what staff see.
  expect(orderFile(id, "badge.png").equals(images.badge!)).toBe(true);

  // The supporter's kit mail: both images attached, byte for byte the ones above (by size).
  const kit = await waitForMail((m) => m.to.includes(email) && m.subject.includes("'Will Be Attending' poster"));
  expect(kit.subject).toBe("Your Big Friend badge and 'Will Be Attending' poster");
  expect(kit.text).toContain(`Your reference is ${id}.`);
  expect(kit.text).toContain("hard-copy badge");
  // The entry QR code for the door rides along, shown inline (it comes first in the message).
  expect(kit.attachments).toEqual([
    { filename: `${id}-entry-qr.png`, contentType: "image/png", size: orderFile(id, "entry-qr.png").length },
    { filename: `${id}-badge.png`, contentType: "image/png", size: images.badge!.length },
    { filename: `${id}-will-be-attending.jpg`, contentType: "image/jpeg", size: images.poster!.length },
  ]);

  // Under the Approved filter the order shows its delivery result.
  await filters.getByRole("link", { name: "Approved" }).click();
  await expect(page).toHaveURL(`${BASE_URL}${SCREEN}?status=approved&q=${encodeURIComponent(email)}`);
  const approvedRow = main.locator("tbody tr").filter({ hasText: id });
  await expect(approvedRow.locator(REVIEW_PILL)).toHaveText("Approved");
  await expect(approvedRow).toContainText(/Delivered: Emailed|Email queued/);
  await expect(approvedRow.getByRole("button", { name: "Approve" })).toBeDisabled();
  if (jsEnabled) {
    // The thumbnails in the row load from the order's token links.
    await expect(approvedRow.locator(".asset-link img").first()).toHaveJSProperty("complete", true);
    await expect.poll(() => approvedRow.locator(".asset-link img").evaluateAll((els) => els.map((i) => (i as HTMLImageElement).naturalWidth))).toEqual([1080, 1080]);
    expect(problems.pageErrors, "uncaught errors").toEqual([]);
    expect(problems.console, "console errors").toEqual([]);
    expect(await problems.csp(), "CSP violations").toEqual([]);
  }
});

test("staff: reject an order; it leaves Pending and shows under Rejected", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const email = uniqueEmail("reject");
  const id = await placeOrderByApi(request, { tierKey: "t1", name: "Not Paid", email, paymentReference: uniqueCode(info) });

  // Signed out at a filtered address: the sign-in form brings staff back to it.
  const screen = `${SCREEN}?status=pending&q=${id}`;
  const main = await signInTo(page, screen, jsEnabled);
  await expect(page).toHaveURL(`${BASE_URL}${screen}`);
  await expect(main.getByRole("searchbox", { name: "Search orders" })).toHaveValue(id);
  const row = main.locator("tbody tr").filter({ hasText: id });
  await expect(row.locator(REVIEW_PILL)).toHaveText("Pending");
  await expect(row).toContainText("Friends Badge");
  await expect(row).toContainText("KES 300");
  await expect(row.getByText("Hard-copy requested")).toHaveCount(0);

  const reject = row.getByRole("button", { name: "Reject" });
  await reject.click();
  // A rejection takes a second press, with an optional note for the supporter; nothing changed yet.
  const confirm = row.getByRole("group", { name: `Reject order ${id}? Not Paid will be emailed that it was not accepted.` });
  await expect(confirm).toBeVisible();
  await expect(confirm).toBeInViewport();
  expect(badgeOrderById(id)).toMatchObject({ status: "pending" });
  await confirm.getByRole("link", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(row.locator(REVIEW_PILL)).toHaveText("Pending");
  await reject.click();
  await confirm.getByLabel("Note to the supporter (optional)").fill("We could not find this M-Pesa payment.");
  await confirm.getByRole("button", { name: "Yes, reject" }).click();
  await expect(main.getByRole("status")).toHaveText(REJECTED);
  // The row stays in view with its new status until the list is loaded again.
  await expect(row.locator(REVIEW_PILL)).toHaveText("Rejected");
  await expect(reject).toBeDisabled();
  expect(badgeOrderById(id)).toMatchObject({ status: "rejected", approved_at: null });
  expect(badgeOrderById(id)!.rejected_at).not.toBeNull();

  // 'Load Orders' reloads the pending list: the order has left it.
  await main.getByRole("button", { name: "Load Orders" }).click();
  await expect(main.getByRole("cell", { name: "No orders found." })).toBeVisible();
  await expect(main.locator("tbody tr").filter({ hasText: id })).toHaveCount(0);

  await main.getByRole("navigation", { name: "Filter by status" }).getByRole("link", { name: "Rejected" }).click();
  await expect(page).toHaveURL(`${BASE_URL}${SCREEN}?status=rejected&q=${id}`);
  const rejectedRow = main.locator("tbody tr").filter({ hasText: id });
  await expect(rejectedRow.locator(REVIEW_PILL)).toHaveText("Rejected");
  await expect(rejectedRow.getByRole("button", { name: "Reject" })).toBeDisabled();

  // Clear drops the search and keeps the status filter.
  await main.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(`${BASE_URL}${SCREEN}?status=rejected`);
  await expect(main.getByRole("searchbox", { name: "Search orders" })).toHaveValue("");
  await expect(main.locator("tbody tr").filter({ hasText: id })).toHaveCount(1);
});
