import type { APIRequestContext, Page } from "@playwright/test";
import sharp from "sharp";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { placeOrderByApi, uniqueCode } from "../support/e2e-badges";
import { ADMIN_KEY } from "../support/e2e-env";

/**
 * The event's goal bar: approved supporters per tier against its target and the KES raised
 * against the evening's target, drawn without JavaScript; with JavaScript it refreshes every
 * 30 seconds without a reload. Orders are approved the way staff do (kit attached, then approve).
 */
type Progress = { ok: true; target: number; raised: number; tiers: { key: string; name: string; goal: number; supporters: number }[] };

const progress = async (request: APIRequestContext) => (await (await request.get("/api/event_progress.php")).json()) as Progress;

let kitPng: string;
test.beforeAll(async () => {
  const png = await sharp({ create: { width: 1080, height: 1080, channels: 3, background: "#123b5d" } }).png().toBuffer();
  kitPng = `data:image/png;base64,${png.toString("base64")}`;
});

async function approvedOrder(request: APIRequestContext, tierKey: string, code: string) {
  const id = await placeOrderByApi(request, { tierKey, name: "Goal Bar Supporter", email: `goal-${code.toLowerCase()}@example.org`, paymentReference: code });
  const headers = { "X-Admin-Key": ADMIN_KEY };
  const kit = await request.post("/api/badge_orders.php", { headers, data: { id, badgeDataUrl: kitPng, posterDataUrl: kitPng } });
  expect(kit.status(), await kit.text()).toBe(200);
  const approved = await request.post("/api/badge_orders.php", { headers, data: { id, status: "approved", paymentChecked: true } });
  expect(approved.status(), await approved.text()).toBe(200);
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
