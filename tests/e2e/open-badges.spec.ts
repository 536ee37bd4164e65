import sharp from "sharp";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { approveOrderByApi, placeOrderByApi, signInTo, uniqueCode } from "../support/e2e-badges";

/**
 * Verifiable badges, with JavaScript on and off: a badge verified by its ID and by its baked PNG
 * (the file as the site serves it), a file with no badge record refused with the reason, and a
 * supporter badge revoked by staff then verified as Revoked, its assertion saying so.
 */

test("a team badge verified by its ID: Valid, its holder, and the machine-readable assertion", async ({ page, request }, info) => {
  const js = info.project.name === "js-on";
  await page.goto("/badges/verify");
  const box = page.locator("form").filter({ has: page.getByLabel("Badge ID") });
  await box.getByLabel("Badge ID").fill("b5692");
  const verify = box.getByRole("button", { name: "Verify" });
  if (js) await hydrated(verify);
  await verify.click();
  await expect(page).toHaveURL(/\/badges\/verify\/b5692$/);
  await expect(page.locator(".verify-verdict")).toHaveText("Valid");
  await expect(page.locator(".verify-result")).toContainText("Issuer");
  const assertionHref = await page.getByRole("link", { name: "Open Badges 2.0 assertion" }).getAttribute("href");
  const assertion = await request.get(assertionHref!);
  expect(assertion.headers()["content-type"]).toContain("application/ld+json");
  expect(await assertion.json()).toMatchObject({ type: "Assertion", verification: { type: "hosted" } });
  const add = page.getByRole("link", { name: "Add to profile" });
  const url = new URL((await add.getAttribute("href"))!);
  expect(url.searchParams.get("certId")).toBe("b5692");
  expect(url.searchParams.get("certUrl")).toMatch(/\/badges\/verify\/b5692$/);
  await expect(page.getByLabel("Credential ID")).toHaveValue("b5692");

  const missing = await page.goto("/badges/verify/no-such-badge");
  expect(missing?.status()).toBe(404);
  await expect(page.locator(".verify-verdict")).toHaveText("Not found");
});

test("a badge verified from its PNG file; a picture without a badge record is refused with the reason", async ({ page, request }, info) => {
  const js = info.project.name === "js-on";
  const baked = await (await request.get("/open/badges/b5692.png?download=1")).body();
  await page.goto("/badges/verify");
  const form = page.locator("form").filter({ has: page.getByLabel("The badge's PNG, as downloaded or emailed") });
  const check = form.getByRole("button", { name: "Check the file" });
  if (js) await hydrated(check);
  await form.getByLabel("The badge's PNG, as downloaded or emailed").setInputFiles({ name: "badge.png", mimeType: "image/png", buffer: baked });
  await check.click();
  await expect(page).toHaveURL(/\/badges\/verify\/b5692$/);
  await expect(page.locator(".verify-verdict")).toHaveText("Valid");

  // The same picture re-encoded (as a chat app would) has lost its record.
  const resaved = await sharp(baked).png({ compressionLevel: 9 }).toBuffer();
  await page.goto("/badges/verify");
  await form.getByLabel("The badge's PNG, as downloaded or emailed").setInputFiles({ name: "resaved.png", mimeType: "image/png", buffer: resaved });
  if (js) await hydrated(check);
  await check.click();
  await expect(form.getByRole("alert")).toContainText("That PNG carries no badge record");
});

test("staff revoke a supporter's badge with a reason; its verify page and assertion then say Revoked", async ({ page, request }, info) => {
  const js = info.project.name === "js-on";
  const code = uniqueCode(info);
  const id = await placeOrderByApi(request, { tierKey: "t3", name: "Revoked Supporter", email: `revoke-${code.toLowerCase()}@example.org`, paymentReference: code });
  await approveOrderByApi(request, id);
  await page.goto(`/badges/verify/${id}`);
  await expect(page.locator(".verify-verdict")).toHaveText("Valid");
  // A supporter is named by first name only.
  await expect(page.locator(".verify-result")).not.toContainText("Supporter Revoked");

  const main = await signInTo(page, `/admin/badge-orders?status=approved&q=${id}`, js);
  const row = main.locator("tbody tr").filter({ hasText: id });
  await row.getByText("Revoke badge", { exact: true }).first().click();
  await row.getByLabel("Reason (shown to anyone who verifies it)").fill("The payment was reversed.");
  const revoke = row.getByRole("button", { name: "Revoke badge" });
  if (js) await hydrated(revoke);
  await revoke.click();
  await expect(page.getByRole("main").locator("tbody tr").filter({ hasText: id })).toContainText("Badge revoked: The payment was reversed.");

  await page.goto(`/badges/verify/${id}`);
  await expect(page.locator(".verify-verdict")).toHaveText("Revoked");
  await expect(page.locator(".verify-result")).toContainText("The payment was reversed.");
  await expect(page.getByRole("link", { name: "Add to profile" })).toHaveCount(0);
  const assertion = await (await request.get(`/badges/assertions/${id}.json`)).json();
  expect(assertion).toMatchObject({ type: "Assertion", revoked: true, revocationReason: "The payment was reversed." });
  expect(assertion.recipient).toBeUndefined();
});
