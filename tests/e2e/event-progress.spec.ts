import type { APIRequestContext, Page } from "@playwright/test";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { approveOrderByApi, badgeOrderById, fillOrder, openTierDialog, placeOrderByApi, signInTo, successReference, uniqueCode } from "../support/e2e-badges";

/**
 * Event night: the goal bar and the supporter wall.
 *
 * The event's goal bar: approved supporters per tier against its target and the KES raised
 * against the evening's target, drawn without JavaScript; with JavaScript it refreshes every
 * 30 seconds without a reload. Orders are approved the way staff do (kit attached, then approve).
 */
type Progress = { ok: true; target: number; raised: number; tiers: { key: string; name: string; goal: number; supporters: number }[] };

const progress = async (request: APIRequestContext) => (await (await request.get("/api/event_progress.php")).json()) as Progress;

async function approvedOrder(request: APIRequestContext, tierKey: string, code: string) {
  const id = await placeOrderByApi(request, { tierKey, name: "Goal Bar Supporter", email: `goal-${code.toLowerCase()}@example.org`, paymentReference: code });
  await approveOrderByApi(request, id);
  return id;
}



const tierCard = (page: Page, name: string) => page.locator(".tier-card").filter({ has: page.getByRole("heading", { name, exact: true }) });

/** The number of supporters a tier's card shows. */
const shown = async (page: Page, name: string) => Number(/^(\d+) of/.exec((await tierCard(page, name).locator(".tier-goal").textContent()) ?? "")?.[1]);

/** The page, loaded afresh, shows what the API says (other tests approve orders at the same time: retried until both agree). */
async function pageAgreesWithApi(page: Page, request: APIRequestContext) {
  let seen!: Progress;
  await expect(async () => {
    seen = await progress(request);
    await page.goto("/event");
    for (const t of seen.tiers) expect(await shown(page, t.name), t.name).toBe(t.supporters);
    await expect(page.locator(".evening-goal")).toContainText(`KES ${seen.raised.toLocaleString("en-KE")} raised of KES 468,500`, { timeout: 1 });
  }).toPass({ timeout: 15_000 });
  return seen;
}

test("the goal bar shows approved supporters per tier and the KES raised, and moves when an order is approved", async ({ page, request }, info) => {
  const before = await pageAgreesWithApi(page, request);
  expect(before.target).toBe(468_500);
  const champion = before.tiers.find((t) => t.key === "t5")!;
  await expect(tierCard(page, "Champion").locator(".tier-goal")).toContainText(`of ${champion.goal} supporters`);

  await approvedOrder(request, "t5", uniqueCode(info));
  // A new visit shows the new figures at once: the approval forgot the cached page.
  const after = await pageAgreesWithApi(page, request);
  expect(after.tiers.find((t) => t.key === "t5")!.supporters).toBeGreaterThanOrEqual(champion.supporters + 1);
  expect(after.raised).toBeGreaterThanOrEqual(before.raised + 3400);
  // The bar is drawn by the page's own HTML and CSS.
  const supporters = await shown(page, "Champion");
  const width = await tierCard(page, "Champion").locator(".progress-bar > span").evaluate((el) => (el as HTMLElement).style.width);
  expect(width).toBe(`${Math.min(100, Math.round((supporters / champion.goal) * 100))}%`);
});

test("with JavaScript, the figures refresh every 30 seconds without a reload", async ({ page, request, jsEnabled }, info) => {
  test.skip(!jsEnabled, "the refresh is JavaScript's");
  await page.clock.install();
  await page.goto("/event");
  await hydrated(page.getByRole("link", { name: /Support & confirm the Partner/ }));
  const start = await shown(page, "Partner");
  expect(Number.isInteger(start)).toBe(true);
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  await approvedOrder(request, "t4", uniqueCode(info));
  const now = (await progress(request)).tiers.find((t) => t.key === "t4")!.supporters;
  expect(now).toBeGreaterThan(start);
  await page.clock.runFor(31_000);
  await expect.poll(() => shown(page, "Partner")).toBeGreaterThanOrEqual(now);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
});

test("a tier at its target says so", async ({ page, request }, info) => {
  test.skip(info.project.name !== "js-off", "one run is enough: it approves several orders");
  const champion = (await progress(request)).tiers.find((t) => t.key === "t5")!;
  for (let i = champion.supporters; i < champion.goal; i++) await approvedOrder(request, "t5", uniqueCode(info));
  await page.goto("/event");
  await expect(tierCard(page, "Champion").locator(".tier-goal")).toContainText("Target reached");
  await expect(tierCard(page, "Friends Badge").locator(".tier-goal")).not.toContainText("Target reached");
});

const wallNames = async (page: Page) => {
  await page.goto("/event/supporters");
  await expect(page.getByRole("heading", { level: 1, name: "Supporter wall" })).toBeVisible();
  return page.locator(".wall-name").allTextContents();
};

test("the supporter wall: a supporter who says yes on the order form is listed once approved, under the name they chose, and can take themselves off it", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const wallName = `Mama Wall ${jsEnabled ? "On" : "Off"} ${info.retry}${Math.floor(Math.random() * 1e6)}`.replace(/\d/g, (d) => "abcdefghij"[Number(d)]!);
  const dialog = await openTierDialog(page, "Helping Hand", jsEnabled);
  await fillOrder(dialog, { name: "Wanjiku Wall Supporter", email: uniqueEmail("wall"), code: uniqueCode(info) });
  await dialog.getByLabel("Show my name on the supporter wall").check();
  await dialog.getByLabel(/^Name to show/).fill(wallName);
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  const reference = await successReference(dialog);
  expect(badgeOrderById(reference)).toMatchObject({ wall_opt_in: 1, wall_name: wallName, wall_portrait: 0 });

  // Not before staff approve.
  expect(await wallNames(page)).not.toContain(wallName);
  await approveOrderByApi(request, reference);
  expect(await wallNames(page)).toContain(wallName);
  const entry = page.locator(".wall-entry").filter({ hasText: wallName });
  await expect(entry).toContainText("Helping Hand");
  // Nothing private on the wall.
  const html = await page.content();
  expect(html).not.toContain(reference);
  expect(html).not.toContain("Wanjiku");

  // The supporter's own order page (the link from their email) takes them off.
  const token = String(badgeOrderById(reference)!.asset_token);
  await page.goto(`/orders/${reference}?t=${token}`);
  const box = page.getByRole("region", { name: "Supporter wall" });
  await expect(box).toContainText(`You asked to be on the supporter wall as '${wallName}'.`);
  await box.getByRole("button", { name: "Remove me from the wall" }).click();
  await expect(box).toHaveText(/You are not shown on the supporter wall\./);
  expect(await wallNames(page)).not.toContain(wallName);
});

test("staff hide a supporter from the wall on the badge orders screen, and show them again", async ({ page, request, jsEnabled }, info) => {
  const name = `Hidden Wall ${jsEnabled ? "On" : "Off"}`;
  const wallName = `Door ${jsEnabled ? "Keeper" : "Warden"} ${"abcdefghij"[info.workerIndex % 10]}${"abcdefghij"[Math.floor(Math.random() * 10)]}${"abcdefghij"[Math.floor(Math.random() * 10)]}`;
  const code = uniqueCode(info);
  const id = await placeOrderByApi(request, { tierKey: "t2", name, email: `hide-${code.toLowerCase()}@example.org`, paymentReference: code, showOnWall: true, wallName });
  await approveOrderByApi(request, id);
  expect(await wallNames(page)).toContain(wallName);

  const main = await signInTo(page, `/admin/badge-orders?status=approved&q=${id}`, jsEnabled);
  const row = main.locator("tbody tr").filter({ hasText: id });
  await expect(row).toContainText(`Supporter wall: '${wallName}'`);
  await row.getByRole("button", { name: "Hide from wall" }).click();
  await expect(row).toContainText("(hidden by staff)");
  expect(await wallNames(page)).not.toContain(wallName);

  await page.goto(`/admin/badge-orders?status=approved&q=${id}`);
  await page.getByRole("main").locator("tbody tr").filter({ hasText: id }).getByRole("button", { name: "Show on wall" }).click();
  await expect(page.getByRole("main").locator("tbody tr").filter({ hasText: id })).not.toContainText("(hidden by staff)");
  expect(await wallNames(page)).toContain(wallName);
});
