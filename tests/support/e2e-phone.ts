import type { APIRequestContext, Locator, Page, TestInfo } from "@playwright/test";
import { approveOrderByApi, placeOrderByApi, uniqueCode } from "./e2e-badges";
import { withDb } from "./e2e-db";
import { expect, hydrated } from "./e2e-fixtures";

/** Helpers for the staff-phone browser tests (a 360x740 screen, tests/e2e/*-phone.spec.ts). */

export const PHONE = { width: 360, height: 740 };

/** The whole of `el` is inside the first screen: the viewport as it is now, 740 px tall (after any scrolling settles). */
export async function expectOnFirstScreen(el: Locator, what = "it") {
  await expect(el).toBeVisible();
  let seen = "";
  await expect
    .poll(
      async () => {
        const b = await el.boundingBox();
        seen = b ? `${Math.round(b.y)}..${Math.round(b.y + b.height)} px` : "not drawn";
        // Whole pixels: an element scrolled to the very edge may end a fraction of a pixel past it.
        return !!b && Math.round(b.y) >= 0 && Math.round(b.y + b.height) <= PHONE.height;
      },
      { message: `${what} should be inside 0..${PHONE.height} px` },
    )
    .toBe(true)
    .catch((e: Error) => {
      throw new Error(`${e.message} (drawn at ${seen})`);
    });
}

/** Scrolls to the bottom of the page (so an answer drawn at the top must be brought into view). */
export const scrollToBottom = (page: Page) => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

/** Letters only (a wall name may not hold digits): the code's characters as letters. */
export const lettersOf = (text: string) => text.replace(/\d/g, (d) => "ABCDEFGHIJ"[Number(d)]!);

/** An approved badge order (kit attached, approved through the JSON API), with a unique name. */
export async function approvedSupporter(request: APIRequestContext, info: TestInfo, fields: Record<string, unknown> = {}) {
  const code = uniqueCode(info);
  const name = `${String(fields.first ?? "Phone")} ${lettersOf(code.slice(-5))}`;
  const { first: _first, ...rest } = fields;
  const id = await placeOrderByApi(request, {
    tierKey: "t3",
    name,
    email: `phone-${code.toLowerCase()}@example.org`,
    paymentReference: code,
    ...rest,
  });
  await approveOrderByApi(request, id);
  return { id, name, code };
}

/** Staff revoke an order's badge on /admin/badge-orders, with a reason (staff already signed in). */
export async function revokeOnScreen(page: Page, id: string, reason: string, js: boolean) {
  await page.goto(`/admin/badge-orders?status=approved&q=${id}`);
  const row = page.getByRole("main").locator("tbody tr").filter({ hasText: id });
  await row.getByText("Revoke badge", { exact: true }).first().click();
  await row.getByLabel("Reason (shown to anyone who verifies it)").fill(reason);
  const revoke = row.getByRole("button", { name: "Revoke badge" });
  if (js) await hydrated(revoke);
  await revoke.click();
  await expect(page.getByRole("main").locator("tbody tr").filter({ hasText: id })).toContainText(`Badge revoked: ${reason}`);
}

/**
 * The door's counts as the database has them, read until two reads agree around `read` (other
 * tests approve orders at the same time): the admitted (approved, badge not revoked) and arrived.
 */
export async function steadyDoorCounts<T>(read: () => Promise<T>) {
  const counts = () =>
    withDb(
      (db) =>
        db
          .prepare("select count(*) as approved, count(checked_in_at) as arrived from badge_orders where status = 'approved' and badge_revoked_at is null")
          .get() as { approved: number; arrived: number },
    );
  for (let i = 0; i < 10; i++) {
    const before = counts();
    const seen = await read();
    const after = counts();
    if (before.approved === after.approved && before.arrived === after.arrived) return { db: after, seen };
  }
  throw new Error("the door counts kept changing");
}

/** The red or green of a box's border: which of the two it is nearer. */
export async function borderTone(el: Locator): Promise<"green" | "red" | "other"> {
  const rgb = await el.evaluate((node) => getComputedStyle(node).borderTopColor);
  const [r, g] = (rgb.match(/\d+/g) ?? []).map(Number);
  if (r === undefined || g === undefined) return "other";
  return g > r + 40 ? "green" : r > g + 60 ? "red" : "other";
}
