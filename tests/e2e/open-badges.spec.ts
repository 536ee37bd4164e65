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

test("staff set a team badge's holder email and date, revoke it and make it valid again; verifiers see each state", async ({ page, request }, info) => {
  const js = info.project.name === "js-on";
  // Each project works on its own earned badge that no other browser test reads.
  const id = js ? "d6604" : "e1215";
  const email = `holder-${id}@example.org`;
  const main = await signInTo(page, "/admin/team-badges", js);
  const card = main.getByRole("region", { name: new RegExp(`${id}$`) });
  await card.getByLabel("Holder's email (optional)").fill(email);
  await card.getByLabel("Issue date").fill("32 Foo 2025");
  const save = card.getByRole("button", { name: "Save" });
  if (js) await hydrated(save);
  await save.click();
  await expect(main.getByRole("region", { name: new RegExp(`${id}$`) }).getByRole("alert")).toHaveText("Issue date must be a date such as 12 Mar 2025 or 2025-03-12.");
  await main.getByRole("region", { name: new RegExp(`${id}$`) }).getByLabel("Issue date").fill("5 Jun 2025");
  if (js) await hydrated(main.getByRole("region", { name: new RegExp(`${id}$`) }).getByRole("button", { name: "Save" }));
  await main.getByRole("region", { name: new RegExp(`${id}$`) }).getByRole("button", { name: "Save" }).click();
  await expect(main.getByRole("region", { name: new RegExp(`${id}$`) }).getByRole("status")).toHaveText("Saved.");
  const assertion = await (await request.get(`/badges/assertions/${id}.json`)).json();
  expect(assertion.recipient.type).toBe("email");
  const crypto = await import("node:crypto");
  expect(assertion.recipient.identity).toBe(`sha256$${crypto.createHash("sha256").update(email + assertion.recipient.salt).digest("hex")}`);
  expect(assertion.issuedOn.startsWith("2025-06-04T21:00")).toBe(true);

  const region = () => main.getByRole("region", { name: new RegExp(`${id}$`) });
  await region().getByText("Revoke badge", { exact: true }).first().click();
  await region().getByLabel("Reason (shown to anyone who verifies it)").fill("Awarded in error.");
  if (js) await hydrated(region().getByRole("button", { name: "Revoke badge" }));
  await region().getByRole("button", { name: "Revoke badge" }).click();
  await expect(region()).toContainText("Revoked");
  await page.goto(`/badges/verify/${id}`);
  await expect(page.locator(".verify-verdict")).toHaveText("Revoked");
  await expect(page.locator(".verify-result")).toContainText("Awarded in error.");
  expect(await (await request.get(`/badges/assertions/${id}.json`)).json()).toMatchObject({ revoked: true, revocationReason: "Awarded in error." });

  await page.goto("/admin/team-badges");
  const again = page.getByRole("main").getByRole("region", { name: new RegExp(`${id}$`) }).getByRole("button", { name: "Make valid again" });
  if (js) await hydrated(again);
  await again.click();
  await expect(page.getByRole("main").getByRole("region", { name: new RegExp(`${id}$`) }).getByRole("status")).toHaveText("Valid again.");
  await page.goto(`/badges/verify/${id}`);
  await expect(page.locator(".verify-verdict")).toHaveText("Valid");
});
