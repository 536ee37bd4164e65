import fs from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { approveOrderByApi, badgeOrderById, placeOrderByApi, portraitImage, signInTo, uniqueCode } from "../support/e2e-badges";
import { applicationsByEmail, subscriberByEmail } from "../support/e2e-db";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { waitForMail } from "../support/e2e-mail";

/** Staff on a phone find one person, download everything held about them, then erase it. */
test.use({ viewport: { width: 360, height: 740 } });

test("staff find a person by phone in another spelling, download their data as a ZIP and erase it after confirming", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const email = uniqueEmail("people");
  // A number of this test's own (the site is shared with the other tests).
  const typed = `07${jsEnabled ? 1 : 2}${String(Date.now()).slice(-7)}`;
  const searched = `+254 ${typed.slice(1, 4)}-${typed.slice(4, 7)}-${typed.slice(7)}`;
  const portrait = `data:image/png;base64,${(await portraitImage("png", 600, 600)).buffer.toString("base64")}`;
  const id = await placeOrderByApi(request, { tierKey: "t1", name: "Wanjiku Mwangi Test", email, phone: typed, paymentReference: uniqueCode(info), portraitDataUrl: portrait });
  await approveOrderByApi(request, id);
  expect((await request.post("/api/subscribe.php", { data: { email, source: "people-test" } })).status()).toBe(200);

  const main = await signInTo(page, "/admin/people", jsEnabled);
  const rules = main.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Kept for" }) });
  await expect(rules.getByRole("row").filter({ hasText: "Supporters' portraits and badge kits" })).toContainText("90 days after the event");
  await expect(rules.getByRole("row").filter({ hasText: "Join applications" })).toContainText("2 years after they are sent");
  await main.getByLabel("Find a person").fill(searched);
  await main.getByRole("button", { name: "Find" }).click();
  const table = main.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Holds" }) });
  const orderRow = table.getByRole("row").filter({ hasText: "Badge order" });
  await expect(orderRow).toContainText(id);
  await expect(orderRow).toContainText("name, email, phone");
  await expect(orderRow).toContainText("portrait, badge kit");
  await expect(table.getByRole("row").filter({ hasText: "Mail" }).first()).toBeVisible();
  await expect(table).toContainText("Newsletter subscription");

  const [download] = await Promise.all([page.waitForEvent("download"), main.getByRole("link", { name: "Download everything (ZIP)" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^personal-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = unzipSync(new Uint8Array(fs.readFileSync(await download.path())));
  const records = JSON.parse(strFromU8(zip["records.json"]!)).records as Record<string, { id?: unknown; email?: string }[]>;
  expect(records.badge_orders!.map((r) => r.id)).toEqual([id]);
  expect(records.subscribers!.map((r) => r.email)).toEqual([email]);
  expect(zip[`files/${id}-portrait.jpg`]!.length).toBeGreaterThan(100);
  expect(zip[`files/${id}-badge.png`]).toBeDefined();

  // Erase asks first, naming what goes.
  await main.getByRole("button", { name: "Erase this person…" }).click();
  const ask = main.getByRole("group");
  await expect(ask).toContainText(/^Erase everything held about this phone number\?/);
  await expect(ask).toContainText(`Badge order ${id}: name, email, phone`);
  await expect(ask).toContainText(`File ${id}-portrait.jpg`);
  await ask.getByRole("button", { name: "Yes, erase this person" }).click();
  await expect(main.getByRole("status")).toContainText("Erased. 1 order(s) kept without the person");

  expect(badgeOrderById(id)).toMatchObject({ email: "", phone: "", name: "(erased)", portrait_file: null, status: "approved" });
  expect(subscriberByEmail(email)).toBeUndefined();
  await main.getByLabel("Find a person").fill(email);
  await main.getByRole("button", { name: "Find" }).click();
  await expect(main.getByText("Nothing on record for that search.")).toBeVisible();
});

test("a visitor asks for their data at /privacy/my-data; the link mailed to them downloads it", async ({ page, request, uniqueEmail }) => {
  const email = uniqueEmail("mydata");
  expect((await request.post("/api/subscribe.php", { data: { email, source: "people-test" } })).status()).toBe(200);
  await page.goto("/privacy/my-data");
  const main = page.getByRole("main");
  await main.getByLabel("Email address").fill(email);
  await main.getByLabel("A copy of my data").check();
  await main.getByRole("button", { name: "Send me the link" }).click();
  await expect(main.getByRole("status")).toContainText("If we hold anything for that address, a link valid for 24 hours is on its way to it.");
  await expect(main).not.toContainText("people-test");

  const mail = await waitForMail((m) => m.to.includes(email) && /Your data/.test(m.subject));
  const link = /https?:\/\/\S+\/privacy\/my-data\/download\?token=\S+/.exec(mail.text)![0];
  const [download] = await Promise.all([page.waitForEvent("download"), page.goto(link).catch(() => null)]);
  const zip = unzipSync(new Uint8Array(fs.readFileSync(await download.path())));
  const records = JSON.parse(strFromU8(zip["records.json"]!)).records as Record<string, { email?: string; source?: string }[]>;
  expect(records.subscribers).toEqual([expect.objectContaining({ email, source: "people-test" })]);
});

test("/privacy names the controller, processors, periods and the Commissioner; the join form cannot be sent without the consent tick", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}) => {
  await page.goto("/privacy");
  const privacy = page.getByRole("main");
  await expect(privacy).toContainText("The data controller is Street Light Outreach");
  await expect(privacy).toContainText("Safaricom PLC (M-Pesa)");
  await expect(privacy).toContainText("Our mail provider");
  await expect(privacy).toContainText("Supporters' portraits and badge kits: 90 days after the event.");
  await expect(privacy).toContainText("Join applications, unless staff keep one: 2 years after they are sent.");
  await expect(privacy).toContainText("Office of the Data Protection Commissioner");
  await expect(privacy.getByRole("link", { name: "/privacy/my-data" })).toBeVisible();

  const email = uniqueEmail("consent");
  await page.goto("/join");
  const form = page.locator("form.join-form");
  await expect(form).toContainText("for up to 2 years");
  if (jsEnabled) await hydrated(form.getByRole("button", { name: "Send application" }));
  await form.getByLabel("Full name").fill("Consent Tester");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByRole("button", { name: "Send application" }).click();
  // The browser refuses (the tick is required), with or without scripts; nothing is stored.
  await expect(page).toHaveURL(/\/join$/);
  expect(await form.getByRole("checkbox", { name: /I agree that this application/ }).evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
  expect(applicationsByEmail(email)).toHaveLength(0);
  // And the server refuses a post without it.
  const res = await request.post("/join", { form: { name: "Consent Tester", email, role: "DevOps" }, maxRedirects: 0 });
  expect(res.status()).toBe(400);
  expect(applicationsByEmail(email)).toHaveLength(0);
  await form.getByRole("checkbox", { name: /I agree that this application/ }).check();
  await form.getByRole("button", { name: "Send application" }).click();
  await expect(page).toHaveURL(/\/join\/thanks$/);
  expect(applicationsByEmail(email)).toMatchObject([{ consent_version: "2026-11-29", source: "join" }]);
});

test("staff keep a join application past the retention period from the person's record, and stop keeping it", async ({ page, request, jsEnabled, uniqueEmail }) => {
  const email = uniqueEmail("keep");
  const sent = await request.post("/join", { form: { name: "Keep Tester", email, role: "DevOps", consent: "yes" }, maxRedirects: 0 });
  expect(sent.status()).toBe(302);
  expect(applicationsByEmail(email)).toMatchObject([{ kept: 0 }]);

  const main = await signInTo(page, "/admin/people", jsEnabled);
  await main.getByLabel("Find a person").fill(email);
  await main.getByRole("button", { name: "Find" }).click();
  const holdings = main.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Holds" }) });
  const row = holdings.getByRole("row").filter({ hasText: "Join application" });
  const keep = row.getByRole("button", { name: "Keep past the retention period" });
  if (jsEnabled) await hydrated(keep);
  await keep.click();
  await expect(main.getByRole("status")).toHaveText("Kept: this application stays past the retention period.");
  expect(applicationsByEmail(email)).toMatchObject([{ kept: 1 }]);
  await expect(row).toContainText("kept past the retention period");
  await row.getByRole("button", { name: "Stop keeping" }).click();
  await expect(main.getByRole("status")).toHaveText("This application follows the retention period again.");
  expect(applicationsByEmail(email)).toMatchObject([{ kept: 0 }]);
});
