import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import type { Selectable } from "kysely";
import type { MerchOrdersTable } from "../../app/features/merch/merch.tables";
import { withDb } from "./e2e-db";
import { ADMIN_KEY, BASE_URL, TMP_DIR } from "./e2e-env";
import { expect, hydrated } from "./e2e-fixtures";

/** Helpers for the merchandise store's browser tests (tests/e2e/store-*.spec.ts). */

export const STORE = "/merchandise";
export const BAG_URL = `${BASE_URL}${STORE}?bag=1`;
/** Where the merch team's order notices go when ORG_INBOX is not set (site.merchEmail). */
export const MERCH_INBOX = "merch@streetlight-outreach.org";
export const ORDER_ID = /MO-[0-9A-Z]{6}/;
export const orderSuccess = (id: string) =>
  `Thank you! Order ${id} is pending review — we'll email you once the merch team confirms payment.`;
export const EMAIL_MESSAGE = "Please provide a valid email address.";
export const CODE_MESSAGE = "Enter your M-Pesa confirmation code.";
export const CODE_USED =
  "This payment confirmation code has already been used for an order. Check the code, or email us if you think this is a mistake.";

export type { MerchColor, MerchItem } from "../../app/features/merch/merch";
import type { MerchItem } from "../../app/features/merch/merch";

/** The public catalogue, as GET /data/merch.json answers it. */
export async function catalogue(request: APIRequestContext): Promise<MerchItem[]> {
  const res = await request.get("/data/merch.json");
  expect(res.status()).toBe(200);
  return (await res.json()) as MerchItem[];
}

export async function itemBySlug(request: APIRequestContext, slug: string) {
  const item = (await catalogue(request)).find((i) => i.slug === slug);
  if (!item) throw new Error(`no item ${slug} in /data/merch.json`);
  return item;
}

/** Money as a Kenyan shop writes it: "KES 12,500". */
export const money = (amount: number, currency = "KES") => `${currency} ${amount.toLocaleString("en-KE")}`;

/** The words a bag line goes by: "Street Light Hoodie, Lamp Amber, Size M" (or "…, One size"). */
export const lineName = (name: string, color?: string, size?: string) =>
  [name, color, size ? (/size/i.test(size) ? size : `Size ${size}`) : undefined].filter(Boolean).join(", ");

export const itemDialog = (page: Page, name: string) => page.getByRole("dialog", { name, exact: true });
export const bagDialog = (page: Page) => page.getByRole("dialog", { name: "Your bag" });
export const checkoutDialog = (page: Page) => page.getByRole("dialog", { name: "Checkout" });

/** The floating Bag button (shown while the bag holds something) and its count. */
export const bagButton = (page: Page) => page.locator(".bag-fab");
export const bagCount = (page: Page) => page.locator(".bag-fab-count");

/** Opens an item by its address (?item=slug); hydrated when JavaScript is on. */
export async function openItem(page: Page, item: Pick<MerchItem, "slug" | "name">, jsEnabled: boolean) {
  await page.goto(`${STORE}?item=${item.slug}`);
  const dialog = itemDialog(page, item.name);
  await expect(dialog).toBeVisible();
  if (jsEnabled) await hydrated(dialog.getByRole("link", { name: "Close" }));
  return dialog;
}

/** Picks a colour or size as a shopper does: the radio is hidden inside its pill, so click the pill. */
export async function choose(dialog: Locator, label: string) {
  const radio = dialog.getByRole("radio", { name: label, exact: true });
  await dialog.locator("label").filter({ has: dialog.page().getByRole("radio", { name: label, exact: true }) }).click();
  await expect(radio).toBeChecked();
}

export type Choice = { color?: string; size?: string; quantity?: number };

/**
 * Chooses colour, size and quantity in an open item dialog and presses 'Add to bag'; returns
 * the bag, which opens in its place. With JavaScript the quantity is set with the '+' button.
 */
export async function addToBag(page: Page, dialog: Locator, choice: Choice, jsEnabled: boolean) {
  if (choice.color) await choose(dialog, choice.color);
  if (choice.size) await choose(dialog, choice.size);
  const quantity = dialog.getByLabel("Quantity", { exact: true });
  const n = choice.quantity ?? 1;
  if (jsEnabled) {
    const plus = dialog.getByRole("button", { name: "Increase quantity" });
    for (let q = Number(await quantity.inputValue()); q < n; q++) {
      await plus.click();
      await expect(quantity).toHaveValue(String(q + 1));
    }
  } else {
    await quantity.fill(String(n));
  }
  await dialog.getByRole("button", { name: "Add to bag" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(BAG_URL);
  const bag = bagDialog(page);
  await expect(bag).toBeVisible();
  return bag;
}

/** One line of the open bag, found by its Remove button's words. */
export const bagLine = (page: Page, bag: Locator, label: string) =>
  bag.getByRole("listitem").filter({ has: page.getByRole("button", { name: removeName(label) }) });

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/**
 * A line's Remove button: "Remove: {line}" (the line's words are visually hidden; being
 * absolutely positioned, the browser may count them as a block and put a space before ':').
 */
export const removeName = (label: string) => new RegExp(`^Remove ?: ${escapeRegExp(label)}$`);

export type CheckoutFields = { name?: string; email?: string; phone?: string; notes?: string; code?: string };

export async function fillCheckout(dialog: Locator, f: CheckoutFields) {
  if (f.name !== undefined) await dialog.getByLabel("Full name").fill(f.name);
  if (f.email !== undefined) await dialog.getByLabel("Email", { exact: true }).fill(f.email);
  if (f.phone !== undefined) await dialog.getByLabel("Phone (optional)").fill(f.phone);
  if (f.notes !== undefined) await dialog.getByLabel(/^Notes/).fill(f.notes);
  if (f.code !== undefined) await dialog.getByLabel("M-Pesa confirmation code").fill(f.code);
}

/** The thank-you banner after an order; returns the order id it names. */
export async function placedOrderId(page: Page) {
  const banner = page.getByRole("status").filter({ hasText: /^Thank you! Order / });
  await expect(banner).toHaveText(new RegExp(`^Thank you! Order ${ORDER_ID.source} is pending review`), { timeout: 15_000 });
  const id = ORDER_ID.exec((await banner.textContent()) ?? "")![0];
  await expect(banner).toHaveText(orderSuccess(id));
  return id;
}

export type MerchOrderRow = Selectable<MerchOrdersTable>;

export const merchOrderById = (id: string) =>
  withDb((db) => db.prepare("select * from merch_orders where id = ?").get(id) as MerchOrderRow | undefined);

export const merchOrdersByEmail = (email: string) =>
  withDb((db) => db.prepare("select * from merch_orders where customer_email = ? order by ts").all(email) as MerchOrderRow[]);

/** An order placed through POST /api/merch_orders.php (as the legacy client does); returns its id. */
export async function placeMerchOrderByApi(request: APIRequestContext, body: Record<string, unknown>) {
  const res = await request.post("/api/merch_orders.php", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  const json = (await res.json()) as { ok: boolean; id: string };
  expect(json).toEqual({ ok: true, id: expect.stringMatching(new RegExp(`^${ORDER_ID.source}$`)), orderUrl: expect.stringContaining("/orders/") });
  return json.id;
}

/** Saves a catalogue through the staff JSON call (used to clean up after a failed editor test). */
export async function saveCatalogueByApi(request: APIRequestContext, items: MerchItem[]) {
  const res = await request.post("/api/merch.php", { data: { items }, headers: { "X-Admin-Key": ADMIN_KEY } });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Runs `fn` while holding the catalogue lock. 'Save Changes' writes the whole catalogue as the
 * form shows it, so two editor tests at once (the two projects run side by side) would undo each
 * other's items. The lock is a directory (mkdir is atomic); one left by a killed run expires.
 */
export async function withCatalogueLock<T>(fn: () => Promise<T>, { timeout = 60_000, staleAfter = 120_000 } = {}) {
  const dir = path.join(TMP_DIR, "locks", "merch-catalogue");
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const since = fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > staleAfter) fs.rmSync(dir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error("the merch catalogue lock was not released in time");
      else await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
