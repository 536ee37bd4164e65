import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { expect, test } from "../support/e2e-fixtures";
import { ADMIN_KEY, BASE_URL, ROOT, TMP_DIR } from "../support/e2e-env";
import { waitForMail } from "../support/e2e-mail";
import { badgeOrderById, placeOrderByApi, signInTo, uniqueCode } from "../support/e2e-badges";
import { freePort, siteEnv } from "../support/site-process";

const PAYMENTS = "/admin/payments";
const ORDERS = "/admin/badge-orders";
const HEADER =
  "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.";
/** A Nairobi wall-clock time as the portal writes it. */
const portalTime = (d: Date) => new Date(d.getTime() + 3 * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
const line = (code: string, at: Date, amount: string) =>
  `${code},${portalTime(at)},${portalTime(at)},Pay Bill from 2547******678,Completed,"${amount}",,,true,Pay Bill Online,2547******678 - JANE WANJIKU,,VESPERS`;
const statement = (...rows: string[]) => ["Street Light Outreach", "Short Code,880100", "", HEADER, ...rows].join("\n");

test("staff import a statement: preview, import, the orders turn verified or short, and approving a short one takes the tick", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  test.setTimeout(90_000);
  const paidCode = uniqueCode(info);
  const shortCode = uniqueCode(info);
  const email = uniqueEmail("paid");
  const paid = await placeOrderByApi(request, { tierKey: "t1", name: "Paid Supporter", email, paymentReference: paidCode });
  const short = await placeOrderByApi(request, { tierKey: "t3", name: "Short Supporter", email: uniqueEmail("short"), paymentReference: shortCode });

  const main = await signInTo(page, PAYMENTS, jsEnabled);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("M-Pesa payments");
  const csv = statement(line(paidCode, new Date(), "300.00"), line(shortCode, new Date(), "1,000.00"));
  await main.getByLabel("Statement file (CSV)").setInputFiles({ name: "statement.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await main.getByRole("button", { name: "Preview" }).click();
  const preview = main.getByRole("heading", { name: "Preview of statement.csv" }).locator("..");
  await expect(preview).toContainText("Rows read: 2");
  await expect(preview).toContainText("New payments: 2");
  await expect(preview).toContainText("Orders matched by the new payments: 2");
  // Nothing is stored before staff confirm.
  expect(badgeOrderById(paid)?.status).toBe("pending");
  await expect(main.getByRole("table").filter({ hasText: paidCode })).toHaveCount(0);
  await preview.getByRole("button", { name: "Import 2 new payments" }).click();
  await expect(main.getByText("Imported: 2 new payments, 0 already known, 0 skipped; 2 orders matched.")).toBeVisible();
  // The payments are listed, claimed by their orders, the payer's number as M-Pesa sent it.
  const received = main.getByRole("region", { name: /^Payments received/ });
  const paidRow = received.getByRole("row").filter({ hasText: paidCode });
  await expect(paidRow).toContainText(paid);
  await expect(paidRow).toContainText("2547******678");
  // The short one is a mismatch.
  const mismatches = main.getByRole("region", { name: /^Orders whose payment does not match/ });
  await expect(mismatches.getByRole("row").filter({ hasText: short })).toContainText("KES 300 short");

  // The badge orders screen: the state beside the code, and the filter.
  await page.goto(`${ORDERS}?status=pending&payment=verified&q=${paidCode}`);
  const paidOrder = main.locator("tbody tr").filter({ hasText: paid });
  await expect(paidOrder.getByText("Payment verified")).toBeVisible();
  await page.goto(`${ORDERS}?status=pending&q=${shortCode}`);
  const shortOrder = main.locator("tbody tr").filter({ hasText: short });
  await expect(shortOrder.getByText("Paid short")).toBeVisible();
  await expect(shortOrder).toContainText("KES 1,000 received, KES 300 short");
  await shortOrder.locator('button[value="generate"]').click();
  const status = main.getByRole("status");
  await expect(status).toHaveText("Badge and poster attached to order.", { timeout: 30_000 });
  await shortOrder.getByRole("button", { name: "Approve" }).click();
  await expect(shortOrder).toContainText(
    `M-Pesa shows KES 1,000 for code ${shortCode}, KES 300 less than the order. Tick 'Approve without a verified payment' to approve it anyway.`,
  );
  expect(badgeOrderById(short)?.status).toBe("pending");
  await shortOrder.getByLabel("Approve without a verified payment").check();
  await shortOrder.getByRole("button", { name: "Approve" }).click();
  await expect(status).toHaveText("Order approved and email triggered.", { timeout: 15_000 });
  expect(badgeOrderById(short)?.status).toBe("approved");

  // On a phone the payments screen's tables become cards: nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(PAYMENTS);
  await expect(main.getByRole("region", { name: /^Payments received/ }).getByText(paidCode)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("a supporter opens the order page from the 'we received your order' email and sees the payment arrive", async ({
  page,
  request,
  uniqueEmail,
}, info) => {
  const email = uniqueEmail("orderpage");
  const code = uniqueCode(info);
  const id = await placeOrderByApi(request, { tierKey: "t3", name: "Page Reader", email, paymentReference: code });
  const mail = await waitForMail((m) => m.to.includes(email) && m.subject.includes(id));
  const link = new RegExp(`${BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/orders/${id}\\?t=[\\w-]+`).exec(mail.text)?.[0];
  expect(link, "the email links to the order page").toBeTruthy();

  const answer = await page.goto(link!);
  expect(answer!.status()).toBe(200);
  expect(answer!.headers()["cache-control"]).toContain("no-store");
  expect(answer!.headers()["referrer-policy"]).toBe("same-origin");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText(`Order ${id}`);
  await expect(main.getByRole("region", { name: "Payment" })).toContainText("We have not seen this payment yet");
  await expect(main.getByRole("region", { name: "Review" })).toContainText("Waiting for our team to check it.");
  await expect(main).toContainText("Big Friend badge");

  const paidAt = new Date(Date.now() - 5 * 60_000);
  const res = await request.post("/api/mpesa_statements.php", {
    headers: { "content-type": "text/csv", "X-Admin-Key": ADMIN_KEY },
    data: statement(line(code, paidAt, "1,300.00")),
  });
  expect(await res.json()).toMatchObject({ ok: true, added: 1, matched: 1 });
  await page.reload();
  const words = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Nairobi", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(paidAt);
  const part = (t: string) => words.find((w) => w.type === t)!.value;
  await expect(main.getByRole("region", { name: "Payment" })).toContainText(
    `Payment received: KES 1,300 on ${part("day")} ${part("month")} at ${part("hour")}:${part("minute")}`,
  );

  // A wrong token shows nothing of the order; /orders finds it again by reference and email.
  await page.goto(`/orders/${id}?t=wrong`);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Order not found");
  await expect(main).not.toContainText("Page Reader");
  await main.getByLabel("Order reference").fill(id.toLowerCase());
  await main.getByLabel("Email").fill(email);
  await main.getByRole("button", { name: "Show my order" }).click();
  await expect(main.getByRole("heading", { level: 1 })).toHaveText(`Order ${id}`);
  await expect(page).toHaveURL(new RegExp(`/orders/${id}\\?t=`));
});

// No browser: a site process of our own, killed while it imports a large statement.
test("kill -9 during a statement import leaves all of it or none of it", async ({}, info) => {
  test.skip(info.project.name !== "js-on", "runs once; it needs no browser");
  test.setTimeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(TMP_DIR, "import-kill-"));
  const rows: string[] = [];
  const start = Date.now() - 10 * 86_400_000;
  for (let i = 0; i < 20_000; i++) rows.push(line(`KL${String(i).padStart(8, "0")}`, new Date(start + i * 30_000), "1,300.00"));
  const csv = statement(...rows);
  const entry = pathToFileURL(path.join(ROOT, "build/server/index.js")).href;
  const boot = `const { startServer } = await import(${JSON.stringify(entry)}); await startServer();`;
  const outcomes: number[] = [];
  try {
    // Killed at a few moments: while the body arrives, while it is parsed, while it is written.
    for (const delayMs of [40, 600, 1000, 1200, 1400, 1700, 3000]) {
      const port = await freePort();
      const child = spawn(process.execPath, ["--input-type=module", "-e", boot], { cwd: ROOT, env: siteEnv(port, dataDir), stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await expect.poll(() => output, { timeout: 45_000 }).toContain("[http] serving");
      const sent = fetch(`http://127.0.0.1:${port}/api/mpesa_statements.php`, {
        method: "POST",
        headers: { "content-type": "text/csv", "X-Admin-Key": ADMIN_KEY },
        body: csv,
      }).then((r) => r.status, () => "cut off");
      await new Promise((r) => setTimeout(r, delayMs));
      child.kill("SIGKILL");
      await exited;
      const answer = await sent;
      const db = new Database(path.join(dataDir, "site.db"), { fileMustExist: true });
      try {
        const stored = (db.prepare("select count(*) as n from received_payments where code like 'KL%'").get() as { n: number }).n;
        const imports = (db.prepare("select count(*) as n from mpesa_imports").get() as { n: number }).n;
        // All or nothing, and an import is recorded exactly when its payments are.
        expect([0, 20_000], `killed after ${delayMs} ms (answer: ${answer})`).toContain(stored);
        expect(imports, `killed after ${delayMs} ms`).toBe(stored === 0 ? 0 : 1);
        if (answer === 200) expect(stored, "an answered import is on disk").toBe(20_000);
        outcomes.push(stored);
      } finally {
        db.close();
      }
      if (outcomes.at(-1) === 20_000) break;
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  info.annotations.push({ type: "outcomes", description: outcomes.join(", ") });
  console.log(`[import-kill] payments stored after each kill: ${outcomes.join(", ")}`);
});
