import { expect, hydrated, test } from "../support/e2e-fixtures";
import { ADMIN_KEY } from "../support/e2e-env";
import { placeOrderByApi, signInTo, uniqueCode } from "../support/e2e-badges";

const PAYMENTS = "/admin/payments";
const HEADER =
  "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.";
const portalTime = (d: Date) => new Date(d.getTime() + 3 * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
const line = (code: string, amount: string) =>
  `${code},${portalTime(new Date())},${portalTime(new Date())},Pay Bill from 2547******678,Completed,"${amount}",,,true,Pay Bill Online,2547******678 - JANE WANJIKU,,VESPERS`;

// A staff member on a phone.
test.use({ viewport: { width: 360, height: 740 } });

test("staff link unclaimed M-Pesa payments to their orders on /admin/payments and see them verified", async ({ page, request, jsEnabled, uniqueEmail }, info) => {
  test.setTimeout(60_000);
  // The supporter typed the letter O where M-Pesa's code has the digit 0.
  const typed = `${uniqueCode(info).slice(0, 9)}O`;
  const received = `${typed.slice(0, 9)}0`;
  const typo = await placeOrderByApi(request, { tierKey: "t3", name: "Typo Supporter", email: uniqueEmail("typo"), paymentReference: typed });
  // Another typed a code nothing like the one M-Pesa gave.
  const stray = uniqueCode(info);
  const other = await placeOrderByApi(request, { tierKey: "t1", name: "Other Supporter", email: uniqueEmail("other"), paymentReference: uniqueCode(info) });
  const imported = await request.post("/api/mpesa_statements.php", {
    headers: { "content-type": "text/csv", "X-Admin-Key": ADMIN_KEY },
    data: ["Street Light Outreach", "Short Code,880100", "", HEADER, line(received, "1,300.00"), line(stray, "300.00")].join("\n"),
  });
  expect(await imported.json()).toMatchObject({ ok: true, added: 2, matched: 0 });

  const main = await signInTo(page, PAYMENTS, jsEnabled);
  // The order's row offers the payment as 'probably this order' (never counted until staff link it).
  await page.goto(`/admin/badge-orders?status=all&q=${typo}`);
  const offered = main.locator("tbody tr").filter({ hasText: typo });
  await expect(offered.getByText("Payment not seen yet")).toBeVisible();
  await expect(offered).toContainText(`Probably this order: ${received}, KES 1,300`);
  await expect(offered.getByRole("button", { name: `Link ${received} to ${typo}` })).toBeVisible();

  await page.goto(PAYMENTS);
  const unclaimed = main.getByRole("region", { name: /^Unclaimed payments/ });
  const typoRow = unclaimed.locator("tr").filter({ hasText: received });
  await expect(typoRow).toContainText(`Probably ${typo}`);
  const linkTypo = typoRow.getByRole("button", { name: `Link to ${typo}` });
  if (jsEnabled) await hydrated(linkTypo);
  await linkTypo.click();
  await expect(main.getByRole("status").filter({ hasText: `Payment ${received} linked to ${typo}.` })).toHaveText(
    `Payment ${received} linked to ${typo}. ${typo} now: Payment verified (KES 1,300 received).`,
  );
  const receivedList = main.getByRole("region", { name: /^Payments received/ });
  await expect(receivedList.locator("tr").filter({ hasText: received })).toContainText(`${typo} (linked by staff)`);
  await expect(unclaimed.locator("tr").filter({ hasText: received })).toHaveCount(0);

  // Any order, by its reference as staff type it.
  const strayRow = unclaimed.locator("tr").filter({ hasText: stray });
  await strayRow.getByLabel(`Link ${stray} to order`).fill(other.replace("-", " ").toLowerCase());
  await strayRow.getByRole("button", { name: "Link", exact: true }).click();
  await expect(main.getByRole("status").filter({ hasText: `Payment ${stray} linked to ${other}.` })).toHaveText(
    `Payment ${stray} linked to ${other}. ${other} now: Payment verified (KES 300 received).`,
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The order's row says so too.
  await page.goto(`/admin/badge-orders?status=all&q=${typo}`);
  const row = main.locator("tbody tr").filter({ hasText: typo });
  await expect(row.getByText("Payment verified")).toBeVisible();
  await expect(row).toContainText(`${received} KES 1,300 (linked by staff)`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
