import type { Locator, Page } from "@playwright/test";
import { badgeOrderById, orderFile, signInTo } from "../support/e2e-badges";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import {
  approvedSupporter,
  borderTone,
  expectOnFirstScreen,
  lettersOf,
  PHONE,
  revokeOnScreen,
  scrollToBottom,
  steadyDoorCounts,
} from "../support/e2e-phone";

/**
 * Event night on a staff phone (360x740), with JavaScript on and off: a revoked badge is refused
 * at the door in red with the reason whichever way it comes (typed reference, the QR link, a
 * photo of the code, a name search), is gone from the supporter wall and the door's count, and
 * its order page says what happened; every answer of the door, and a name search's results, is
 * on the first screen, large, in colour and words.
 */
test.use({ viewport: PHONE });

const door = (page: Page) => page.getByRole("main");
const answer = (page: Page) => page.locator(".door-answer .door-result");

async function press(form: Locator, name: string, js: boolean) {
  const button = form.getByRole("button", { name, exact: true });
  if (js) await hydrated(button);
  await button.click();
}

/** The ticket URL an entry QR code holds, read from the stored PNG. */
async function ticketUrl(id: string) {
  const { default: jsQR } = await import("jsqr");
  const { default: sharp } = await import("sharp");
  const { data, info } = await sharp(orderFile(id, "entry-qr.png")).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return new URL(jsQR(new Uint8ClampedArray(data), info.width, info.height)!.data);
}

test("a revoked badge is refused at the door in red with the reason, however it comes; it leaves the wall and the count; its order page says so", async ({
  page,
  request,
  jsEnabled: js,
}, info) => {
  test.setTimeout(90_000);
  const shownName = `Wall ${lettersOf(String(Date.now()).slice(-6))} ${info.project.name === "js-on" ? "On" : "Off"}`;
  const { id, name } = await approvedSupporter(request, info, { first: "Mercy", showOnWall: true, wallName: shownName, hardCopy: true });
  await page.goto("/event/supporters");
  await expect(page.getByRole("main")).toContainText(shownName);

  await signInTo(page, "/admin/check-in", js);
  await revokeOnScreen(page, id, "Refunded", js);
  // On the staff screen its status reads 'Revoked' first, with the reason beside it.
  const row = door(page).locator("tbody tr").filter({ hasText: id });
  const status = row.locator('td[data-label="Status"] .cell');
  await expect(status).toHaveText(/^Revoked\s*Badge revoked: Refunded/);
  await expect(status.locator(".pill")).toHaveText("Revoked");
  await expect(row.getByRole("button", { name: "Resend kit" })).toHaveCount(0);

  // The supporter wall (a cached page) no longer shows them.
  await page.goto("/event/supporters");
  await expect(page.getByRole("heading", { name: "Supporter wall" })).toBeVisible();
  await expect(page.getByRole("main")).not.toContainText(shownName);

  // The door's 'N approved' leaves them out.
  const counts = await steadyDoorCounts(async () => {
    await page.goto("/admin/check-in");
    return (await door(page).locator(".door-counts").innerText()).match(/(\d+) arrived of (\d+) approved/)!.slice(1).map(Number);
  });
  expect(counts.seen).toEqual([counts.db.arrived, counts.db.approved]);

  // Typed, without 'BO-', in lower case, with a space: refused in red, with the reason.
  const typed = door(page).locator("form.door-reference");
  await scrollToBottom(page);
  await typed.getByLabel("Reference").fill(`${id.slice(3, 6).toLowerCase()} ${id.slice(6).toLowerCase()}`);
  await press(typed, "Check in", js);
  await expect(answer(page)).toHaveClass(/door-result-refused/);
  await expect(answer(page).locator(".door-verdict")).toHaveText("✕ Do not let in");
  await expect(answer(page)).toContainText("Badge revoked on");
  await expect(answer(page)).toContainText("Reason: Refunded");
  await expect(answer(page)).toContainText(`${name}`);
  await expect(answer(page)).toContainText(`Big Friend · ${id}`);
  await expect(answer(page)).not.toContainText("Hand over");
  expect(await borderTone(answer(page))).toBe("red");
  await expectOnFirstScreen(answer(page), "the refusal");
  expect(badgeOrderById(id)!.checked_in_at).toBeNull();

  // A photo of the kit's entry QR code (read in the browser with JavaScript, on the server without).
  const photo = door(page).locator("form.door-photo");
  if (js) await hydrated(photo.getByRole("button", { name: "Check in from the photo" }));
  await scrollToBottom(page);
  await photo.getByLabel("Or take a photo of the code").setInputFiles({ name: "ticket.png", mimeType: "image/png", buffer: orderFile(id, "entry-qr.png") });
  if (!js) await photo.getByRole("button", { name: "Check in from the photo" }).click();
  await expect(answer(page)).toContainText("Reason: Refunded");
  await expect(answer(page)).toHaveClass(/door-result-refused/);
  await expectOnFirstScreen(answer(page), "the refusal of a photo");

  // A name search shows them, refused with the reason, and offers no check-in.
  const search = door(page).getByRole("search");
  await scrollToBottom(page);
  await search.getByLabel("Name or reference").fill(name.toLowerCase());
  await press(search, "Find", js);
  const found = door(page).getByRole("list", { name: "Supporters found" }).getByRole("listitem").filter({ hasText: id });
  await expect(found).toContainText(`Do not let in: the badge of ${name} (${id}) was revoked. Reason: Refunded`);
  await expect(found.getByRole("button")).toHaveCount(0);
  await expectOnFirstScreen(found, "the search result");

  // The QR link a phone's own camera app opens: who it is, refused, and no button to let them in.
  const url = await ticketUrl(id);
  await page.goto(`/admin/check-in${url.search}`);
  const opened = page.getByRole("region", { name: "Ticket from a QR code" });
  await expect(opened).toContainText("Do not let in");
  await expect(opened).toContainText("Reason: Refunded");
  await expect(opened.getByRole("button")).toHaveCount(0);
  await expectOnFirstScreen(opened.locator(".door-result"), "the refusal of an opened ticket");
  expect(badgeOrderById(id)!.checked_in_at).toBeNull();

  // The order page says what happened in plain words: no entry code, no downloads.
  await page.goto(`/orders/${id}?t=${badgeOrderById(id)!.asset_token}`);
  const review = page.getByRole("region", { name: "Review" });
  await expect(review).toContainText("Your badge was cancelled: it no longer gets you in at the door");
  await expect(review).toContainText("The reason: Refunded");
  await expect(page.getByRole("region", { name: "Your entry code" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: /Download/ })).toHaveCount(0);
  await expect(page.getByRole("img", { name: /Entry QR code/ })).toHaveCount(0);
  await expect(page.getByText("Approved: your badge")).toHaveCount(0);
  // The kit's own links no longer answer without a staff session.
  const token = badgeOrderById(id)!.asset_token;
  expect((await request.get(`/admin/badge-orders/${id}/badge.png?t=${token}`)).status()).toBe(404);
});

test("every way of checking in answers on the first screen, large, in colour and words; a name search's results are there too", async ({
  page,
  request,
  jsEnabled: js,
}, info) => {
  test.setTimeout(60_000);
  const { id, name } = await approvedSupporter(request, info, { first: "Samuel", hardCopy: true });
  await signInTo(page, "/admin/check-in", js);

  // The staff menu is one row on a phone (a wrong-key notice under it, when there is one, is not the menu).
  const header = (await page.locator(".staff-header-inner").boundingBox())!;
  expect(header.height, "the staff header is one row").toBeLessThanOrEqual(72);
  // The reference box is a text box with the site's 44 px style.
  const reference = door(page).locator("form.door-reference").getByLabel("Reference");
  await expect(reference).toHaveAttribute("type", "text");
  expect((await reference.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  expect(await reference.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(16);

  // A name search from the bottom of the page: the results are on the first screen.
  const search = door(page).getByRole("search");
  await scrollToBottom(page);
  await search.getByLabel("Name or reference").fill(name.split(" ")[1]!.toLowerCase());
  await press(search, "Find", js);
  const found = door(page).getByRole("list", { name: "Supporters found" }).getByRole("listitem").filter({ hasText: id });
  await expect(found).toContainText(`${name} · Big Friend · ${id}`);
  await expectOnFirstScreen(found, "the search result");

  // Checked in from the results: the answer is on the first screen, green, large.
  await scrollToBottom(page);
  const checkIn = found.getByRole("button", { name: `Check in ${name} (${id})` });
  if (js) await hydrated(checkIn);
  await checkIn.click();
  await expect(answer(page)).toHaveClass(/door-result-ok/);
  await expect(answer(page).locator(".door-verdict")).toHaveText("✓ Checked in");
  await expect(answer(page)).toContainText("Hand over a hard-copy badge");
  expect(await borderTone(answer(page))).toBe("green");
  expect(await answer(page).locator(".door-verdict").evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(28);
  await expectOnFirstScreen(answer(page), "the answer to a check-in from the results");
  const at = badgeOrderById(id)!.checked_in_at;
  expect(at).not.toBeNull();

  // Typed again without 'BO-': 'Already', on the first screen, and no badge to hand over.
  const typed = door(page).locator("form.door-reference");
  await scrollToBottom(page);
  await typed.getByLabel("Reference").fill(id.slice(3));
  await press(typed, "Check in", js);
  await expect(answer(page)).toHaveClass(/door-result-already/);
  await expect(answer(page).locator(".door-verdict")).toContainText("Already checked in at");
  await expect(answer(page)).not.toContainText("Hand over a hard-copy badge");
  await expect(answer(page)).toContainText("check the person's name before letting them in");
  await expectOnFirstScreen(answer(page), "the 'already' answer");

  // A photo of the code: the answer comes to the first screen too.
  const photo = door(page).locator("form.door-photo");
  if (js) await hydrated(photo.getByRole("button", { name: "Check in from the photo" }));
  await scrollToBottom(page);
  await photo.getByLabel("Or take a photo of the code").setInputFiles({ name: "ticket.png", mimeType: "image/png", buffer: orderFile(id, "entry-qr.png") });
  if (!js) await photo.getByRole("button", { name: "Check in from the photo" }).click();
  await expect(answer(page)).toContainText(`Already checked in at`);
  await expectOnFirstScreen(answer(page), "the answer to a photo");

  // An unknown reference is refused, in red, on the first screen.
  await scrollToBottom(page);
  await typed.getByLabel("Reference").fill("bo-zzz zzz");
  await press(typed, "Check in", js);
  await expect(answer(page)).toContainText("No approved order with that reference.");
  expect(await borderTone(answer(page))).toBe("red");
  await expectOnFirstScreen(answer(page), "the answer to an unknown reference");
  // Recorded once.
  expect(badgeOrderById(id)!.checked_in_at).toBe(at);
});
