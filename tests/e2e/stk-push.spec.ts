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
  await expect(page.getByText(`M-Pesa receipt ${prompt.receipt}.`)).toBeVisible({ timeout: 15_000 });
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
  await expect(page.getByText(`M-Pesa receipt ${prompt.receipt}.`)).toBeVisible({ timeout: 15_000 });
});

const NO_MONEY = /no money was taken/i;

test("a slow push: Daraja holds its answer 20 s, the site says it does not know yet, then the paid callback makes it 'Paid'", async ({ page, jsEnabled }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 360, height: 740 });
  fake.set({ pushDelayMs: 20_000 });
  try {
    await page.goto(`http://127.0.0.1:${site.port}/event`);
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Big Friend", exact: true }) });
    const support = card.getByRole("link", { name: /^Support & confirm/ });
    if (jsEnabled) await hydrated(support);
    await support.click();
    const dialog = page.getByRole("dialog", { name: "Confirm your Big Friend" });
    if (jsEnabled) await hydrated(dialog.getByRole("button", { name: "Submit confirmation" }));
    await fillOrder(dialog, { name: "Jane Wanjiru", email: `stk-slow-${Date.now()}@example.org`, phone: jsEnabled ? "0722 000 201" : "0722 000 202" });
    await dialog.getByRole("button", { name: "Submit confirmation" }).click();
    // The payer enters the PIN at 3 s, while Daraja still holds the push's answer.
    await expect.poll(() => fake.state.pushes.findLast((p: { phone: string }) => p.phone === (jsEnabled ? "254722000201" : "254722000202"))?.state, { timeout: 10_000 }).toBe("pending");
    const prompt = fake.state.pushes.findLast((p: { phone: string }) => p.phone === (jsEnabled ? "254722000201" : "254722000202"))!;
    const reference = prompt.accountReference as string;
    await page.waitForTimeout(3_000);
    const held = fake.answer(prompt.checkoutRequestId, "never");
    await held;
    // The site gives up at 15 s: 'unknown', never 'no money was taken', no new prompt offered yet.
    await expect(page).toHaveURL(/\/orders\/BO-[0-9A-Z]{6}\?t=/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { name: "Did the payment go through?" })).toBeVisible();
    await expect(page.getByText("We do not know yet whether M-Pesa took the money")).toBeVisible();
    await expect(page.getByRole("button", { name: "Send the prompt again" })).toHaveCount(0);
    await expect(page.getByLabel("M-Pesa confirmation code")).toBeVisible();
    await expect(page.locator("body")).not.toContainText(NO_MONEY);
    // The callback comes late (25 s): kept and matched to this order by phone and amount.
    await fake.resend(prompt.checkoutRequestId);
    if (!jsEnabled) await page.getByRole("button", { name: "Check again" }).click();
    await expect(page.getByRole("heading", { name: "Paid", exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(`M-Pesa receipt ${prompt.receipt}.`)).toBeVisible();
    await expect(page.locator("body")).not.toContainText(NO_MONEY);
    expect(fake.state.pushes.filter((p: { accountReference: string }) => p.accountReference === reference)).toHaveLength(1);
  } finally {
    fake.set({ pushDelayMs: 0 });
  }
});

test("cancelled, then paid by paybill: the panel says 'Paid' as the payment section does, and offers no prompt", async ({ page, jsEnabled }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 360, height: 740 });
  const reference = await orderByPrompt(page, jsEnabled, jsEnabled ? "0722 000 301" : "0722 000 302");
  await fake.answer(fake.latest(reference)!.checkoutRequestId, 1032);
  await expect(page.getByText("Cancelled on the phone: no money was taken.")).toBeVisible({ timeout: 15_000 });
  const nairobi = new Date(Date.now() + 3 * 3_600_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const transId = `TPB${String(Date.now()).slice(-6)}${jsEnabled ? "A" : "B"}`;
  const res = await fetch(`http://127.0.0.1:${site.port}/api/pay/c2b/confirmation/e2e-stk-callback-0123456789`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ TransactionType: "Pay Bill", TransID: transId, TransTime: nairobi, TransAmount: "1300.00", BusinessShortCode: "880100", BillRefNumber: reference, MSISDN: "254722000301", FirstName: "JANE" }),
  });
  expect(res.status).toBe(200);
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByRole("heading", { name: "Paid", exact: true }).count();
      },
      { timeout: 20_000 },
    )
    .toBe(1);
  const headline = page.locator(".order-headline").first();
  await expect(headline).toContainText("Payment received: KES 1,300");
  await expect(page.locator(".stk-panel .lead")).toHaveText((await headline.textContent())!);
  await expect(page.getByRole("button", { name: "Send the prompt again" })).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(NO_MONEY);
});
