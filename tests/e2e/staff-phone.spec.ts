import type { Page } from "@playwright/test";
import { STAFF_SCREENS } from "../../app/features/admin/staff-screen";
import { approveOrderByApi, badgeOrderById, placeOrderByApi, signInTo, uniqueCode } from "../support/e2e-badges";
import { revokeOnScreen } from "../support/e2e-phone";
import { ADMIN_KEY, BASE_URL } from "../support/e2e-env";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { waitForMail } from "../support/e2e-mail";
import { placeMerchOrderByApi } from "../support/e2e-store";

/**
 * Event night on a staff phone: every staff screen at 360x740, with and without JavaScript.
 * Controls a thumb can press, cards whose text is not squeezed, charts and tables that fit,
 * and one press to approve an order.
 */
test.use({ viewport: { width: 360, height: 740 } });

/** Every staff screen (the menu's, and the printable badge table) and the public badge check. */
const SCREENS = [...STAFF_SCREENS.map((s) => s.to as string), "/admin/badge-table", "/badges/verify"];

/**
 * Links that are controls in a list (not words in a sentence): the state chips, a payment's phone
 * and order, an order card's phone and address.
 */
const CONTROL_LINKS = ".status-filters a, .payments-screen td a:not(.button), .payments-screen li a:not(.button), .order-row a.order-line, .merch-order-facts a";

/** Visible controls less than 44 px tall or with text under 16 px (a checkbox is measured by its label). */
function undersizedControls(page: Page) {
  return page.evaluate((links) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLInputElement>(`input, select, textarea, button, ${links}`)) {
      if (el.type === "hidden") continue;
      const own = el.getBoundingClientRect();
      // Not drawn, or off-screen on purpose (the honeypot).
      if (own.width === 0 || own.height === 0 || own.right <= 0 || getComputedStyle(el).visibility === "hidden") continue;
      let box = own;
      let font = parseFloat(getComputedStyle(el).fontSize);
      if (el.type === "checkbox" || el.type === "radio") {
        const label = el.closest("label") ?? (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null);
        if (label) {
          box = label.getBoundingClientRect();
          font = parseFloat(getComputedStyle(label).fontSize);
        }
      }
      // A link is measured for its height only: its text is the list's.
      if (box.height < 43.5 || (el.tagName !== "A" && font < 16)) {
        const name = el.getAttribute("aria-label") || el.textContent?.trim() || el.name || el.id;
        out.push(`${el.tagName.toLowerCase()}[${el.type}] "${name.slice(0, 40)}": ${Math.round(box.height)} px tall, ${font} px text`);
      }
    }
    return [...new Set(out)];
  }, CONTROL_LINKS);
}

/** Boxes that scroll (sideways or down) without being reachable by keyboard and named. */
function unreachableScrollers(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        if (/^(TEXTAREA|SELECT|INPUT)$/.test(el.tagName)) return false;
        const s = getComputedStyle(el);
        const scrolls =
          (/(auto|scroll)/.test(s.overflowX) && el.scrollWidth > el.clientWidth + 1) ||
          (/(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1);
        const named = !!(el.getAttribute("aria-label") || el.getAttribute("aria-labelledby"));
        return scrolls && !(el.tabIndex === 0 && el.getAttribute("tabindex") === "0" && named);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`),
  );
}

test("every control on every staff screen is at least 44 px tall with 16 px text; every box that scrolls is reachable by keyboard", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  test.setTimeout(90_000);
  // Rows with their buttons on the order screens.
  await placeOrderByApi(request, { tierKey: "t2", name: "Thumb Tester", email: uniqueEmail("thumb"), phone: "0712 345 678", paymentReference: uniqueCode(info) });
  await placeMerchOrderByApi(request, {
    customerName: "Thumb Shopper",
    customerEmail: uniqueEmail("thumbshop"),
    customerPhone: "0712 345 678",
    paymentReference: uniqueCode(info),
    items: [{ itemId: "SL-HOODIE", quantity: 1, color: "Night Blue", size: "M" }],
  });
  // A payment received, with the payer's phone and its order as links.
  const paid = uniqueCode(info);
  await placeOrderByApi(request, { tierKey: "t1", name: "Thumb Payer", email: uniqueEmail("thumbpay"), paymentReference: paid });
  const res = await request.post("/api/mpesa_statements.php", {
    headers: { "content-type": "text/csv", "X-Admin-Key": ADMIN_KEY },
    data: statement(line(paid, "300.00", "254712345678 - THUMB PAYER")),
  });
  expect(res.status(), await res.text()).toBe(200);
  await signInTo(page, "/admin", jsEnabled);
  const problems: string[] = [];
  for (const screen of SCREENS) {
    await page.goto(screen);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    if (jsEnabled) await page.waitForLoadState("networkidle");
    for (const p of await undersizedControls(page)) problems.push(`${screen}: ${p}`);
    for (const p of await unreachableScrollers(page)) problems.push(`${screen}: scrolls without keyboard access: ${p}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen} scrolls sideways`).toBeLessThanOrEqual(360);
  }
  expect(problems).toEqual([]);
});

const HEADER =
  "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.";
const portalTime = (d: Date) => new Date(d.getTime() + 3 * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
const line = (code: string, amount: string, party: string) =>
  `${code},${portalTime(new Date())},${portalTime(new Date())},Pay Bill from x,Completed,"${amount}",,,true,Pay Bill Online,${party},,VESPERS`;
const statement = (...rows: string[]) => ["Street Light Outreach", "Short Code,880100", "", HEADER, ...rows].join("\n");

/** Text in a payments card that wraps onto several lines narrower than 120 px. */
function squeezedText(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const td of document.querySelectorAll<HTMLElement>(".payments-screen .data-table td")) {
      const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        if (new Set(rects.map((r) => Math.round(r.top))).size < 2) continue;
        const width = Math.max(...rects.map((r) => r.right)) - Math.min(...rects.map((r) => r.left));
        if (width < 120) out.push(`${td.dataset.label}: "${node.textContent.trim().slice(0, 40)}" wraps in ${Math.round(width)} px`);
      }
    }
    return out;
  });
}

test("payments on a phone: every card's text has the card's width, the payer's number as M-Pesa sent it", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const [full, short] = [uniqueCode(info), uniqueCode(info)];
  const shortOrder = await placeOrderByApi(request, { tierKey: "t4", name: "Kevin Ouma", email: uniqueEmail("short"), paymentReference: short });
  await placeOrderByApi(request, { tierKey: "t1", name: "Wanjiru Full", email: uniqueEmail("full"), paymentReference: full });
  const res = await request.post("/api/mpesa_statements.php", {
    headers: { "content-type": "text/csv", "X-Admin-Key": ADMIN_KEY },
    data: statement(line(full, "300.00", "254712345678 - WANJIRU FULL"), line(short, "2,000.00", "2547******432 - KEVIN OUMA")),
  });
  expect(res.status(), await res.text()).toBe(200);

  const main = await signInTo(page, "/admin/payments", jsEnabled);
  const mismatches = main.getByRole("region", { name: /^Orders whose payment does not match/ });
  await expect(mismatches.locator("tr").filter({ hasText: shortOrder })).toContainText("KES 2,000 received, KES 100 short");
  const received = main.getByRole("region", { name: /^Payments received/ });
  // Staff may need to call the payer: the number as M-Pesa sent it, a link to call; a masked one as sent.
  await expect(received.locator("tr").filter({ hasText: full }).getByRole("link", { name: "254712345678" })).toHaveAttribute("href", "tel:+254712345678");
  await expect(received.locator("tr").filter({ hasText: short })).toContainText("2547******432");
  expect(await squeezedText(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("a statement's preview is on screen after 'Preview'; the same file again says nothing is new and offers no import", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const codes = [uniqueCode(info), uniqueCode(info)];
  await placeOrderByApi(request, { tierKey: "t1", name: "Preview Payer", email: uniqueEmail("preview"), paymentReference: codes[0]! });
  const csv = Buffer.from(statement(...codes.map((c) => line(c, "300.00", "2547******678 - PREVIEW PAYER"))));
  const main = await signInTo(page, "/admin/payments", jsEnabled);
  const choose = () => main.getByLabel("Statement file (CSV)").setInputFiles({ name: "statement.csv", mimeType: "text/csv", buffer: csv });

  await choose();
  if (jsEnabled) await hydrated(main.getByRole("button", { name: "Preview" }));
  await main.getByRole("button", { name: "Preview" }).click();
  const title = main.getByRole("heading", { name: "Preview of statement.csv" });
  await expect(title).toBeInViewport();
  await expect(main.getByText("New payments: 2")).toBeInViewport();
  await main.getByRole("button", { name: "Import 2 new payments" }).click();
  await expect(main.getByText("Imported: 2 new payments, 0 already known, 0 skipped; 1 orders matched.")).toBeInViewport();

  await choose();
  await main.getByRole("button", { name: "Preview" }).click();
  await expect(title).toBeInViewport();
  await expect(main.getByText("Nothing new: all 2 payments in this file are already recorded.")).toBeVisible();
  await expect(main.getByRole("button", { name: /^Import/ })).toHaveCount(0);
  await expect(main.getByRole("button", { name: "Import 0 new payments" })).toHaveCount(0);
});

test("dashboards on a phone: chart labels readable, tables and polls inside their cards, recent activity in Nairobi time", async ({
  page,
  jsEnabled,
}) => {
  await signInTo(page, "/admin/activity", jsEnabled);
  const chart = page.getByRole("img", { name: "Page views per day, last 30 days" });
  await expect(chart).toBeVisible();
  // Each label as drawn on the screen: its font size times the drawing's scale.
  const labels = await chart.evaluate((svg: SVGSVGElement) =>
    [...svg.querySelectorAll<SVGTextElement>(".chart-axis text, .chart-grid text")].map((t) => ({
      text: t.textContent,
      px: parseFloat(getComputedStyle(t).fontSize) * (t.getScreenCTM()?.a ?? 0),
      right: t.getBoundingClientRect().right,
    })),
  );
  expect(labels.length).toBeGreaterThan(5);
  const chartRight = (await chart.boundingBox())!.x + (await chart.boundingBox())!.width;
  for (const l of labels) {
    expect(l.px, `'${l.text}' is drawn ${l.px.toFixed(1)} px tall`).toBeGreaterThanOrEqual(11.5);
    expect(l.right, `'${l.text}' is inside the chart`).toBeLessThanOrEqual(chartRight + 1);
  }

  /** Tables and lists wider than the card they sit in. */
  const tooWide = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>(".dash-card")].flatMap((card) => {
        const right = card.getBoundingClientRect().right;
        return [...card.querySelectorAll<HTMLElement>("table, .poll, .poll-list")]
          .filter((t) => t.getBoundingClientRect().width > 0 && t.getBoundingClientRect().right > right + 1)
          .map((t) => `${t.tagName.toLowerCase()} ${Math.round(t.getBoundingClientRect().width)} px in a card ${Math.round(card.clientWidth)} px wide`);
      }),
    );
  expect(await tooWide()).toEqual([]);
  await page.goto("/admin/engagement");
  await expect(page.getByRole("list", { name: "Polls, newest first" })).toBeVisible();
  expect(await tooWide()).toEqual([]);

  // The overview's recent activity: Nairobi time, as every other staff screen.
  await page.goto("/admin");
  const recent = page.getByRole("main").getByRole("table");
  await expect(recent.getByRole("columnheader").first()).toHaveText("Time (EAT)");
  const first = recent.locator("tbody time").first();
  const when = (await first.getAttribute("datetime"))!;
  const nairobi = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Nairobi", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  await expect(first).toHaveText(nairobi.format(new Date(when)));
});

test("a badge order is a card half as tall as before with 44 px buttons, and one press approves it (the kit is drawn)", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  test.setTimeout(60_000);
  const email = uniqueEmail("onestep");
  const id = await placeOrderByApi(request, {
    tierKey: "t1",
    name: "Achieng Onestep",
    email,
    phone: "+254 722 000 444",
    paymentReference: uniqueCode(info),
    hardCopy: true,
    notes: "At the gate.",
  });
  const received = await waitForMail((m) => m.to.includes(email) && m.subject.includes(id));
  const orderPage = new RegExp(`${BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/orders/${id}\\?t=[\\w-]+`).exec(received.text)![0];

  const main = await signInTo(page, `/admin/badge-orders?status=pending&q=${id}`, jsEnabled);
  const card = main.locator(`#row-${id}`);
  await expect(card).toContainText("Achieng Onestep");
  // Beside Approve, an order with no payment seen says so, with when the last callback and
  // statement came (at most three short lines); the rest of the card is measured as before.
  const noPayment = card.locator(".no-payment-seen");
  await expect(noPayment).toContainText("No payment seen yet for this order");
  const noPaymentHeight = (await noPayment.boundingBox())!.height;
  expect(noPaymentHeight).toBeLessThanOrEqual(72);
  const height = (await card.boundingBox())!.height - noPaymentHeight;
  // 815-843 px before, as a column of labelled cells.
  expect(height, `the card is ${Math.round(height)} px tall`).toBeLessThanOrEqual(421);
  for (const button of await card.getByRole("button").all()) {
    if (!(await button.isVisible())) continue;
    expect((await button.boundingBox())!.height, await button.innerText()).toBeGreaterThanOrEqual(44);
  }

  // One press: no 'Generate assets' first.
  const approve = card.getByRole("button", { name: "Approve" });
  await expect(approve).toBeEnabled();
  if (jsEnabled) await hydrated(approve);
  await approve.click();
  await expect(main.getByRole("status")).toHaveText("Order approved and email triggered.", { timeout: 30_000 });
  expect(badgeOrderById(id)).toMatchObject({ status: "approved", badge_file: "badge.png", poster_file: "poster.jpg" });

  // A tier already named a badge is not called a 'badge badge'.
  const kit = await waitForMail((m) => m.to.includes(email) && m.subject.includes("'Will Be Attending' poster"));
  expect(kit.subject).toBe("Your Friends Badge and 'Will Be Attending' poster");
  await page.goto(orderPage);
  await expect(page.getByRole("main")).toContainText("Friends Badge");
  await expect(page.getByRole("main")).not.toContainText(/badge badge/i);
});

/** Pairs of text lines in a badge-order card whose boxes overlap (one drawn over the other). */
function overprintedText(page: Page, id: string) {
  return page.evaluate((rowId) => {
    const row = document.getElementById(`row-${rowId}`)!;
    const boxes: { text: string; r: DOMRect }[] = [];
    const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (!text || node.parentElement?.closest(".visually-hidden")) continue; // for screen readers, not drawn
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 1 && r.height > 1) boxes.push({ text: text.slice(0, 40), r });
    }
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!.r;
        const b = boxes[j]!.r;
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 1 && y > 1) out.push(`'${boxes[i]!.text}' over '${boxes[j]!.text}'`);
      }
    return out;
  }, id);
}

test("approved and revoked badge orders at 360 px: no line of a card is drawn over another", async ({ page, request, jsEnabled, uniqueEmail }, info) => {
  test.setTimeout(60_000);
  const approved = await placeOrderByApi(request, { tierKey: "t2", name: "Nekesa Approved", email: uniqueEmail("overapp"), phone: "0712 345 678", paymentReference: uniqueCode(info) });
  await approveOrderByApi(request, approved);
  const revoked = await placeOrderByApi(request, { tierKey: "t2", name: "Otieno Revoked", email: uniqueEmail("overrev"), phone: "0712 345 678", paymentReference: uniqueCode(info) });
  await approveOrderByApi(request, revoked);
  await signInTo(page, "/admin", jsEnabled);
  await revokeOnScreen(page, revoked, "Paid twice by mistake, refunded in full by M-Pesa", jsEnabled);
  for (const id of [approved, revoked]) {
    await page.goto(`/admin/badge-orders?status=approved&q=${id}`);
    await expect(page.locator(`#row-${id}`)).toContainText(id);
    if (id === approved) await expect(page.locator(`#row-${id}`)).toContainText("Delivered");
    expect(await overprintedText(page, id), id).toEqual([]);
  }
});

test("a merch order at 360 px is a shorter card: its facts without a label line each, the phone a link a thumb can press", async ({ page, request, jsEnabled, uniqueEmail }, info) => {
  const id = await placeMerchOrderByApi(request, {
    customerName: "Wairimu Card",
    customerEmail: uniqueEmail("mcard"),
    customerPhone: "0712 345 678",
    paymentReference: uniqueCode(info),
    items: [{ itemId: "SL-HOODIE", quantity: 1, color: "Night Blue", size: "M" }],
  });
  await signInTo(page, "/admin", jsEnabled);
  await page.goto(`/admin/merch-orders?q=${id}`);
  const card = page.locator(`#card-${id}`);
  await expect(card).toContainText("Wairimu Card");
  // The 'no payment seen' line beside Approve (at most three short lines) is measured apart.
  const noPayment = card.locator(".no-payment-seen");
  const noPaymentHeight = (await noPayment.count()) ? (await noPayment.boundingBox())!.height : 0;
  expect(noPaymentHeight).toBeLessThanOrEqual(72);
  const height = (await card.boundingBox())!.height - noPaymentHeight;
  // 748 px before (this order), each fact under a label line of its own; 652 px without them;
  // 569 px with the address on one line, the phone beside the payment code and a one-line note box.
  expect(height, `the card is ${Math.round(height)} px tall`).toBeLessThanOrEqual(585);
  await expect(card.getByRole("link", { name: "0712 345 678" })).toHaveAttribute("href", "tel:0712345678");
});
