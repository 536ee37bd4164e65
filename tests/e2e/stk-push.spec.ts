import { expect, hydrated, test } from "../support/e2e-fixtures";
import { fillOrder } from "../support/e2e-badges";
import { startDarajaFake } from "../support/daraja-fake.mjs";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

// M-Pesa Express, from the badge form to 'Paid' on the order page, with the fake Daraja
// answering. A site of its own with the Daraja keys set: every other spec's site has no push.
let fake: Awaited<ReturnType<typeof startDarajaFake>>;
let site: SiteProcess;

test.beforeAll(async () => {
  fake = await startDarajaFake();
  site = await startSiteProcess("stk", {
    DARAJA_BASE_URL: fake.url,
    DARAJA_CONSUMER_KEY: fake.consumerKey,
    DARAJA_CONSUMER_SECRET: fake.consumerSecret,
    DARAJA_PASSKEY: fake.passkey,
    MPESA_CALLBACK_SECRET: "e2e-stk-callback-0123456789",
  });
});
test.afterAll(async () => {
  await site?.stop();
  await fake?.close();
});

const CHECK_PHONE = "Check your phone: enter your M-Pesa PIN to pay KES 1,300 to Street Light Outreach";

async function orderByPrompt(page: import("@playwright/test").Page, jsEnabled: boolean, phone: string) {
  // As openTierDialog does, on this spec's own site.
  await page.goto(`http://127.0.0.1:${site.port}/event`);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Big Friend", exact: true }) });
  const support = card.getByRole("link", { name: /^Support & confirm/ });
  if (jsEnabled) await hydrated(support);
  await support.click();
  const dialog = page.getByRole("dialog", { name: "Confirm your Big Friend" });
  await expect(dialog).toBeVisible();
  if (jsEnabled) await hydrated(dialog.getByRole("button", { name: "Submit confirmation" }));
  await fillOrder(dialog, { name: "Jane Wanjiru", email: `stk-${Date.now()}@example.org`, phone });
  await expect(dialog.getByLabel("Pay now with M-Pesa on this phone")).toBeChecked();
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  await expect(page).toHaveURL(/\/orders\/BO-[0-9A-Z]{6}\?t=/);
  await expect(page.getByText(CHECK_PHONE)).toBeVisible();
  const reference = /\/orders\/(BO-[0-9A-Z]{6})/.exec(page.url())![1]!;
  await expect.poll(() => fake.latest(reference)?.state).toBe("pending");
  return reference;
}

test("pay now: the PIN prompt is answered and the order page says 'Paid' with the receipt", async ({ page, jsEnabled }) => {
  test.setTimeout(60_000);
  const reference = await orderByPrompt(page, jsEnabled, "0712 345 678");
  let loads = 0;
  page.on("load", () => (loads += 1));
  await page.waitForTimeout(6_000);
  const prompt = await fake.answer(fake.latest(reference)!.checkoutRequestId, "paid");
  // Without JavaScript the page refreshes itself; with it, it updates in place.
  await expect(page.getByText(`Paid: M-Pesa receipt ${prompt.receipt}.`)).toBeVisible({ timeout: 15_000 });
  if (jsEnabled) expect(loads, "no reloads with JavaScript").toBe(0);
  else expect(loads).toBeGreaterThan(0);
});

test("cancelled on the phone, then a second prompt, then 'Paid'", async ({ page, jsEnabled }) => {
  test.setTimeout(60_000);
  const reference = await orderByPrompt(page, jsEnabled, "0722 000 111");
  await fake.answer(fake.latest(reference)!.checkoutRequestId, 1032);
  await expect(page.getByText("Cancelled on the phone: no money was taken.")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("Pay by paybill instead")).toBeVisible();
  await page.getByRole("button", { name: "Send the prompt again" }).click();
  await expect(page.getByText(CHECK_PHONE)).toBeVisible();
  await expect.poll(() => fake.state.pushes.filter((p: { accountReference: string }) => p.accountReference === reference).length).toBe(2);
  const prompt = await fake.answer(fake.latest(reference)!.checkoutRequestId, "paid");
  await expect(page.getByText(`Paid: M-Pesa receipt ${prompt.receipt}.`)).toBeVisible({ timeout: 15_000 });
});
