import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Locator, Page, TestInfo } from "@playwright/test";
import sharp from "sharp";
import { withDb } from "./e2e-db";
import { plainKitPng } from "./kit-png";
import { ADMIN_KEY, DATA_DIR } from "./e2e-env";
import { expect, hydrated } from "./e2e-fixtures";
import type { Selectable } from "kysely";
import type { BadgeOrdersTable } from "../../app/features/event-badges/event-badges.tables";

/** Helpers for the badge programme's browser tests (tests/e2e/badges-*.spec.ts). */

export const ORDER_SUCCESS =
  "Thank you! Your confirmation is pending approval. We will email the badge kit once verified.";
export const ORDER_REF = /^BO-[0-9A-Z]{6}$/;

export type BadgeOrderRow = Selectable<BadgeOrdersTable>;

export const badgeOrdersByEmail = (email: string) =>
  withDb(
    (db) => db.prepare("select * from badge_orders where email = ? order by created_at, id").all(email) as BadgeOrderRow[],
  );

export const badgeOrderById = (id: string) =>
  withDb((db) => db.prepare("select * from badge_orders where id = ?").get(id) as BadgeOrderRow | undefined);

/** The stored file of an order (portrait, badge or poster), read straight from the data folder. */
export const orderFile = (id: string, file: string) => fs.readFileSync(path.join(DATA_DIR, "badge-orders", id, file));

const ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
let counter = 0;

/**
 * A fresh, valid M-Pesa code (ten letters and digits, opening with a letter) for this test and
 * project: one code pays for one order, and the two projects run side by side on one database.
 * Letter 2 tells the projects apart, a per-worker counter and random letters do the rest.
 */
export function uniqueCode(info: TestInfo) {
  counter += 1;
  const project = info.project.name === "js-off" ? "F" : "N";
  const rand = Array.from(crypto.randomBytes(5), (b) => ALNUM[b % ALNUM.length]).join("");
  const count = (counter % 100).toString().padStart(2, "0");
  return `T${project}${rand}${count}${info.workerIndex % 10}`;
}

/** A test portrait: a gradient with a face-like disc, so the crop has something to find. */
export async function portraitImage(format: "png" | "jpeg", width = 900, height = 600) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" x2="1" y1="0" y2="1">
      <stop offset="0" stop-color="#123b5d"/><stop offset="1" stop-color="#f5b85a"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#e0b48a"/>
    <circle cx="${width / 2 - 40}" cy="${height / 2 - 30}" r="14" fill="#222"/>
    <circle cx="${width / 2 + 40}" cy="${height / 2 - 30}" r="14" fill="#222"/>
  </svg>`;
  const img = sharp(Buffer.from(svg));
  const buffer = format === "png" ? await img.png().toBuffer() : await img.jpeg({ quality: 85 }).toBuffer();
  return { name: `me.${format === "png" ? "png" : "jpg"}`, mimeType: `image/${format}`, buffer };
}

/** Format and size of an image, read with sharp. */
export async function imageInfo(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}

/**
 * Opens /event and presses 'Support & confirm' on a tier; returns the dialog (hydrated when
 * JavaScript is on, so its form is the app's and not the browser's).
 */
export async function openTierDialog(page: Page, tierName: string, jsEnabled: boolean) {
  await page.goto("/event");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: tierName, exact: true }) });
  const support = card.getByRole("link", { name: /^Support & confirm/ });
  if (jsEnabled) await hydrated(support);
  await support.click();
  const dialog = page.getByRole("dialog", { name: `Confirm your ${tierName}` });
  await expect(dialog).toBeVisible();
  if (jsEnabled) await hydrated(dialog.getByRole("button", { name: "Submit confirmation" }));
  return dialog;
}

export type OrderFields = { name?: string; email?: string; phone?: string; code?: string; notes?: string; hardCopy?: boolean };

/** Fills the confirmation form's fields that are given. */
export async function fillOrder(dialog: Locator, f: OrderFields) {
  if (f.name !== undefined) await dialog.getByLabel("Full name").fill(f.name);
  if (f.email !== undefined) await dialog.getByLabel("Email", { exact: true }).fill(f.email);
  if (f.phone !== undefined) await dialog.getByLabel("Phone (optional)").fill(f.phone);
  if (f.code !== undefined) await dialog.getByLabel("Payment confirmation code").fill(f.code);
  if (f.notes !== undefined) await dialog.getByLabel("Notes (optional)").fill(f.notes);
  if (f.hardCopy !== undefined) await dialog.getByLabel("I would like a printed hard-copy badge too").setChecked(f.hardCopy);
}

/** The reference shown in the dialog's success panel, once it shows. */
export async function successReference(dialog: Locator) {
  await expect(dialog.getByText(ORDER_SUCCESS)).toBeVisible({ timeout: 15_000 });
  const ref = dialog.locator(".order-ref");
  await expect(ref).toHaveText(ORDER_REF);
  return (await ref.textContent())!.trim();
}

/** An order placed through POST /api/badge_orders.php (as the legacy client does); returns its id. */
export async function placeOrderByApi(
  request: APIRequestContext,
  body: { tierKey: string; name: string; email: string; paymentReference: string } & Record<string, unknown>,
) {
  const res = await request.post("/api/badge_orders.php", { data: body });
  expect(res.status(), await res.text()).toBe(200);
  const json = (await res.json()) as { ok: boolean; id: string };
  expect(json).toEqual({ ok: true, id: expect.stringMatching(ORDER_REF), orderUrl: expect.stringContaining("/orders/") });
  return json.id;
}

let kitDataUrl: Promise<string> | undefined;

/** Approved the way staff do: a kit (badge and poster) attached, then approved. */
export async function approveOrderByApi(request: APIRequestContext, id: string) {
  kitDataUrl ??= plainKitPng().then((png) => `data:image/png;base64,${png.toString("base64")}`);
  const kitPng = await kitDataUrl;
  const headers = { "X-Admin-Key": ADMIN_KEY };
  const kit = await request.post("/api/badge_orders.php", { headers, data: { id, badgeDataUrl: kitPng, posterDataUrl: kitPng } });
  expect(kit.status(), await kit.text()).toBe(200);
  const approved = await request.post("/api/badge_orders.php", { headers, data: { id, status: "approved", paymentChecked: true } });
  expect(approved.status(), await approved.text()).toBe(200);
}

/**
 * Opens `screen` (an admin address) signed out, signs in with the form it shows (which posts to
 * /admin with returnTo) and lands back on `screen`.
 */
export async function signInTo(page: Page, screen: string, jsEnabled: boolean) {
  await page.goto(screen);
  const main = page.getByRole("main");
  const signIn = main.getByRole("button", { name: "Sign in" });
  await expect(main.getByRole("heading", { name: "Staff sign-in" })).toBeVisible();
  await expect(main.locator('input[name="returnTo"]')).toHaveValue(screen);
  if (jsEnabled) await hydrated(signIn);
  await main.getByLabel("Admin key").fill(ADMIN_KEY);
  await signIn.click();
  await expect(page.getByRole("banner").getByRole("button", { name: "Sign out", exact: true })).toBeVisible();
  return main;
}
