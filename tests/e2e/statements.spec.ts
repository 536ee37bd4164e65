import writeExcelFile from "write-excel-file/node";
import { expect, test } from "../support/e2e-fixtures";
import { approveOrderByApi, badgeOrderById, placeOrderByApi, signInTo, uniqueCode } from "../support/e2e-badges";

const PAYMENTS = "/admin/payments";
const HEADER = [
  "Receipt No.",
  "Completion Time",
  "Initiation Time",
  "Details",
  "Transaction Status",
  "Paid In",
  "Withdrawn",
  "Balance",
  "Balance Confirmed",
  "Reason Type",
  "Other Party Info",
  "Linked Transaction ID",
  "A/C No.",
];
/** A Nairobi wall-clock time, as the portal writes it. */
const portalTime = (d: Date) => new Date(d.getTime() + 3 * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
/** The Date an .xlsx cell holds for that wall-clock time. */
const cellTime = (d: Date) => ({ value: new Date(Math.floor(d.getTime() / 1000) * 1000 + 3 * 3_600_000), format: "yyyy-mm-dd hh:mm:ss" });

test("staff import the portal's .xlsx: the preview says the short code, the period and the reversal; an order approved, then reversed, comes first", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  test.setTimeout(90_000);
  const code = uniqueCode(info);
  const reversal = uniqueCode(info);
  const id = await placeOrderByApi(request, { tierKey: "t1", name: "Reversed Supporter", email: uniqueEmail("reversed"), paymentReference: code });
  await approveOrderByApi(request, id);

  const now = Date.now();
  const paidAt = new Date(now - 60 * 60_000);
  const reversedAt = new Date(now - 10 * 60_000);
  const xlsx = await writeExcelFile([
    ["Organisation Name:", "STREET LIGHT OUTREACH"],
    ["Short Code:", 880100],
    ["Time Period:", `From ${portalTime(new Date(now - 10 * 86_400_000))} To ${portalTime(new Date(now - 60_000))}`],
    [null],
    HEADER,
    [code, cellTime(paidAt), cellTime(paidAt), "Pay Bill from 2547******678 - JANE WANJIKU", "Completed", 300, null, 54300, "true", "Pay Bill Online", "2547******678 - JANE WANJIKU", null, id],
    [reversal, cellTime(reversedAt), cellTime(reversedAt), `Reversal of ${code}`, "Completed", null, -300, 54000, "true", "Reversal", "2547******678 - JANE WANJIKU", code, null],
  ] as never).toBuffer();

  const main = await signInTo(page, PAYMENTS, jsEnabled);
  await main.getByLabel("Statement file (CSV)").setInputFiles({ name: "portal-statement.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: Buffer.from(xlsx) });
  await main.getByRole("button", { name: "Preview" }).click();
  const preview = main.getByRole("heading", { name: "Preview of portal-statement.xlsx" }).locator("..");
  await expect(preview).toContainText("Short code: 880100");
  await expect(preview).toContainText("from its Time Period line");
  await expect(preview).toContainText("Reversals: 1");
  await expect(preview).toContainText(`${reversal} took back KES 300 of payment ${code}`);
  expect(badgeOrderById(id)?.status).toBe("approved");
  await preview.getByRole("button", { name: "Import 1 new payment" }).click();
  await expect(main.getByText("Imported: 1 new payments, 0 already known, 0 skipped; 1 orders matched. 1 reversal recorded.")).toBeVisible();

  // First on the screen: the approved order whose money went back.
  const first = main.locator(".payments-screen > section").first();
  await expect(first.getByRole("heading", { level: 2 })).toHaveText(/^Approved, then reversed by M-Pesa \(\d+\)$/);
  await expect(first.getByRole("listitem").filter({ hasText: id })).toContainText(`Approved, then reversed by M-Pesa: ${id} · Reversed Supporter · KES 300`);
  await expect(first.getByRole("listitem").filter({ hasText: id })).toContainText(`reversed by ${reversal}`);

  // On a phone nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(PAYMENTS);
  await expect(first.getByRole("listitem").filter({ hasText: id })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // The order's row says so.
  await page.goto(`/admin/badge-orders?status=all&q=${id}`);
  const row = main.locator("tbody tr").filter({ hasText: id });
  await expect(row.getByText("Reversed by M-Pesa", { exact: true })).toBeVisible();
  await expect(row).toContainText(`KES 300 received, then reversed by M-Pesa (receipt ${reversal})`);
});

test("a statement for another short code is refused with the number it is for, and nothing is kept", async ({ page, jsEnabled }, info) => {
  const code = uniqueCode(info);
  const csv = [
    "Organisation Name:,KIOSK LTD",
    "Short Code:,123456",
    "Time Period:,From 2026-11-01 00:00:00 To 2026-11-20 23:59:59",
    "",
    HEADER.join(","),
    `${code},2026-11-12 19:42:10,2026-11-12 19:42:10,Pay Bill,Completed,"1,300.00",,"9,000.00",true,Pay Bill Online,2547******678 - JANE WANJIKU,,X`,
  ].join("\n");
  const main = await signInTo(page, PAYMENTS, jsEnabled);
  await main.getByLabel("Statement file (CSV)").setInputFiles({ name: "kiosk.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await main.getByRole("button", { name: "Preview" }).click();
  await expect(main.getByRole("alert").filter({ hasText: "short code" })).toHaveText("This statement is for short code 123456, not this site's 880100. Nothing was imported.");
  await expect(main.getByRole("heading", { name: /^Preview of/ })).toHaveCount(0);
  await expect(main.getByText(code)).toHaveCount(0);
});
