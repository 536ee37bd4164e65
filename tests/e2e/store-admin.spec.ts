import crypto from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { signInTo, uniqueCode } from "../support/e2e-badges";
import { outboxFor } from "../support/e2e-db";
import { BASE_URL } from "../support/e2e-env";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { mailFor, waitForMail } from "../support/e2e-mail";
import {
  catalogue,
  itemBySlug,
  itemDialog,
  merchOrderById,
  money,
  placeMerchOrderByApi,
  saveCatalogueByApi,
  STORE,
  withCatalogueLock,
} from "../support/e2e-store";

const ORDERS = "/admin/merch-orders";
const EDITOR = "/merchandise/admin";

test("staff: sign in at /admin/merch-orders, find an order by id, approve with a note (customer mailed), mark pending, reject", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  test.setTimeout(60_000);
  const hoodie = await itemBySlug(request, "street-light-hoodie");
  const charcoal = hoodie.colors.find((c) => c.label === "Charcoal")!;
  const email = uniqueEmail("staffmerch");
  const code = uniqueCode(info);
  // The legacy client's body: its price and total are ignored, the catalogue's are used.
  const id = await placeMerchOrderByApi(request, {
    customerName: "Wanjiru Merch",
    customerEmail: email,
    customerPhone: "+254 700 111 222",
    notes: "Call before delivery.",
    paymentReference: code,
    total: 1,
    currency: "KES",
    items: [{ itemId: hoodie.id, name: hoodie.name, price: 1, quantity: 2, color: charcoal, size: "L" }],
  });
  const total = hoodie.price * 2;
  expect(merchOrderById(id)).toMatchObject({ total, status: "pending", reviewed_at: null });
  await waitForMail((m) => m.to.includes(email) && m.subject === `We received your merch order ${id}`);

  const main = await signInTo(page, ORDERS, jsEnabled);
  await expect(page).toHaveURL(`${BASE_URL}${ORDERS}`);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Merch Orders");
  const tools = page.getByRole("banner").getByRole("navigation", { name: "Staff tools" });
  await expect(tools.getByRole("link", { name: "Merchandise editor" })).toHaveAttribute("href", EDITOR);

  await main.getByRole("searchbox", { name: "Filter orders" }).fill(id);
  await main.getByRole("button", { name: "Load orders" }).click();
  await expect(page).toHaveURL(`${BASE_URL}${ORDERS}?q=${id}`);
  await expect(main.getByRole("article")).toHaveCount(1);
  const card = main.getByRole("article", { name: id });
  const pill = card.locator(".merch-order-head .pill");
  await expect(pill).toHaveText("Pending review");
  await expect(card.locator(".merch-order-facts")).toContainText("Wanjiru Merch");
  await expect(card.getByRole("link", { name: email })).toHaveAttribute("href", `mailto:${email}`);
  await expect(card.getByRole("link", { name: "+254 700 111 222" })).toHaveAttribute("href", "tel:+254700111222");
  await expect(card.locator("code")).toHaveText(code);
  await expect(card).toContainText("Call before delivery.");
  const lines = card.getByRole("table", { name: `Items in order ${id}` });
  await expect(lines.locator("tbody tr")).toHaveCount(1);
  await expect(lines.locator("tbody tr")).toContainText(`2 × ${hoodie.name}`);
  await expect(lines.locator("tbody tr")).toContainText("Charcoal");
  await expect(lines.locator("tbody tr")).toContainText("Size L");
  await expect(lines.locator("tfoot")).toHaveText(`Total${money(total)}`);
  const review = card.locator(".merch-order-review");
  await expect(review.getByText("Reviewed")).toHaveCount(0);
  const note = card.getByLabel("Staff note for this change (optional)");
  await expect(note).toHaveValue("");

  const status = main.getByRole("status");
  const approveNote = "Paid in full; delivery on Saturday.";
  await note.fill(approveNote);
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(status).toHaveText(`Order ${id} approved.`);
  await expect(pill).toHaveText("Approved");
  await expect(review).toContainText(approveNote);
  await expect(review.locator("dt").first()).toHaveText("Reviewed");
  await expect(review.locator("time")).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} EAT$/);
  // The box is empty again: the note is in the staff notes, a dated entry.
  await expect(note).toHaveValue("");
  const approved = merchOrderById(id)!;
  expect(approved).toMatchObject({ status: "approved", staff_notes: expect.stringMatching(/^\[[^\]]+ EAT\] Approved: Paid in full; delivery on Saturday\.$/) });
  expect(approved.reviewed_at).not.toBeNull();

  // The customer's confirmation, with the note; their mailbox now holds both messages.
  const confirmed = await waitForMail((m) => m.to.includes(email) && m.subject === `Your merch order ${id} is confirmed`);
  expect(confirmed.text).toContain(`The merch team has confirmed your payment for order ${id} (${money(total)}).`);
  expect(confirmed.text).toContain(`2 × ${hoodie.name}, Charcoal, L — ${money(total)}`);
  expect(confirmed.text).toContain(`A note from the team: ${approveNote}`);
  const inbox = (await mailFor(email)).filter((m) => m.to.includes(email)); // not the team's notice (Reply-To)
  expect(inbox.map((m) => m.subject).sort()).toEqual([
    `We received your merch order ${id}`,
    `Your merch order ${id} is confirmed`,
  ]);

  // Back to pending: the note stays as it was. (Un-approving takes a second, confirming press.)
  await card.getByRole("button", { name: "Mark pending" }).click();
  await card.getByRole("button", { name: "Yes, mark pending" }).click();
  await expect(status).toHaveText(`Order ${id} marked pending review.`);
  await expect(pill).toHaveText("Pending review");
  await expect(review).toContainText(approveNote);
  expect(merchOrderById(id)).toMatchObject({ status: "pending", staff_notes: approved.staff_notes });

  // Rejected, with a new note.
  const rejectNote = "No such code on the M-Pesa statement.";
  await note.fill(rejectNote);
  await card.getByRole("button", { name: "Reject", exact: true }).click();
  // A rejection takes a second press; the note typed is kept for it and nothing changed yet.
  const confirm = card.getByRole("group", { name: new RegExp(`^Reject order ${id}\\?`) });
  await expect(confirm).toBeVisible();
  await expect(confirm).toBeInViewport();
  await expect(note).toHaveValue(rejectNote);
  expect(merchOrderById(id)).toMatchObject({ status: "pending" });
  await confirm.getByRole("button", { name: "Yes, reject" }).click();
  await expect(status).toHaveText(`Order ${id} rejected.`);
  await expect(pill).toHaveText("Rejected");
  await expect(review).toContainText(rejectNote);
  await expect(review.locator("time")).toBeVisible();
  // Added below the earlier note, never in its place.
  expect(merchOrderById(id)).toMatchObject({ status: "rejected", staff_notes: `${approved.staff_notes}\n${merchOrderById(id)!.staff_notes.split("\n")[1]}` });
  expect(merchOrderById(id)!.staff_notes).toMatch(/\n\[[^\]]+ EAT\] Rejected: No such code on the M-Pesa statement\.$/);
  // The first approval mails the customer, and so does the rejection (with the note): never silent.
  expect(outboxFor(email).filter((r) => r.to_address === email).map((r) => r.kind)).toEqual([
    "merch.received",
    "merch.approved",
    "merch.rejected",
  ]);
  const cancelled = await waitForMail((m) => m.to.includes(email) && m.subject === `Your merch order ${id} was not accepted`);
  expect(cancelled.text).toContain(`A note from the team: ${rejectNote}`);
});

/** The editor's form; with `fresh` only a form rendered after `markForm` (a reload or a remount). */
const editorForm = (main: Locator, fresh = false) =>
  main.locator(`form.merch-editor${fresh ? ":not([data-e2e-stale])" : ""}`);

async function markForm(main: Locator) {
  await editorForm(main).evaluate((f) => f.setAttribute("data-e2e-stale", ""));
}

/** Presses one of the editor's submit buttons and waits for the server's answer. */
async function pressEditorButton(page: Page, form: Locator, name: "Save Changes" | "Generate Share Files") {
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(EDITOR));
  await form.getByRole("button", { name }).click();
  return answered;
}

/** 'Save Changes' that should succeed: the editor comes back drawn from the saved catalogue. */
async function saveChanges(page: Page, main: Locator) {
  await markForm(main);
  await pressEditorButton(page, editorForm(main), "Save Changes");
  const form = editorForm(main, true);
  await expect(form.getByRole("status")).toHaveText("Merchandise saved successfully.");
  return form;
}

const metaContent = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1];

test("staff: /merchandise/admin adds a throwaway item, changes its price, refuses a duplicate slug, generates share pages, removes it", async ({
  page,
  request,
  jsEnabled,
}, info) => {
  test.setTimeout(120_000);
  const tag = `${info.project.name === "js-off" ? "off" : "on"}${crypto.randomBytes(3).toString("hex")}`;
  const item = {
    id: `E2E-${tag.toUpperCase()}`,
    name: `Throwaway Scarf ${tag}`,
    slug: `e2e-scarf-${tag}`,
    description: "A scarf that exists only while a test runs.",
    impact: "Proves the editor saves.",
    image: "/images/merch/tote.webp",
  };

  // Save Changes writes the whole catalogue: one editor test at a time (see withCatalogueLock).
  await withCatalogueLock(async () => {
    try {
      const before = await catalogue(request);
      expect(before.map((i) => i.id)).not.toContain(item.id);
      const main = await signInTo(page, EDITOR, jsEnabled);
      await expect(main.getByRole("heading", { level: 1 })).toHaveText("Merchandise");
      const tools = page.getByRole("banner").getByRole("navigation", { name: "Staff tools" });
      await expect(tools.getByRole("link", { name: "Merch orders" })).toHaveAttribute("href", ORDERS);
      await expect(tools.getByRole("link", { name: "Blog editor" })).toHaveAttribute("href", "/blogs/admin");

      let form = editorForm(main);
      await expect(form).toHaveAccessibleName("Merchandise items");
      const hoodieSet = form.getByRole("group", { name: "Street Light Hoodie (SL-HOODIE)" });
      await expect(hoodieSet.getByLabel("Price")).toHaveValue("3500");
      await expect(hoodieSet.getByLabel("Sizes")).toHaveValue("S, M, L, XL, 2XL");

      // A new item in the empty fieldset; the currency left blank (KES).
      const blank = form.getByRole("group", { name: "Add a new item" });
      await expect(blank).toHaveCount(1);
      await blank.getByLabel("Id (SKU)").fill(item.id);
      await blank.getByLabel("Name", { exact: true }).fill(item.name);
      await blank.getByLabel("Slug").fill(item.slug);
      await blank.getByLabel("Price").fill("2450");
      await blank.getByLabel("Image").fill(item.image);
      await blank.getByLabel("Description").fill(item.description);
      await blank.getByLabel("Impact").fill(item.impact);
      await blank.getByLabel("Tags").fill("e2e, , throwaway");
      await blank.getByLabel("Sizes").fill("One size");
      await blank.getByLabel("Colours").fill("Sky|#3a7bd5");
      form = await saveChanges(page, main);
      let ours = form.getByRole("group", { name: `${item.name} (${item.id})` });
      await expect(ours.getByLabel("Price")).toHaveValue("2450");
      await expect(form.getByRole("group", { name: "Add a new item" })).toHaveCount(1);
      const added = await catalogue(request);
      expect(added.find((i) => i.id === item.id)).toEqual({
        ...item,
        price: 2450,
        currency: "KES",
        tags: ["e2e", "throwaway"],
        available: true,
        colors: [{ label: "Sky", swatch: "#3a7bd5" }],
        sizes: ["One size"],
      });
      // Everything else came back exactly as it was.
      expect(added.filter((i) => i.id !== item.id)).toEqual(before);

      // A new price.
      await ours.getByLabel("Price").fill("2600");
      form = await saveChanges(page, main);
      ours = form.getByRole("group", { name: `${item.name} (${item.id})` });
      await expect(ours.getByLabel("Price")).toHaveValue("2600");
      expect((await catalogue(request)).find((i) => i.id === item.id)?.price).toBe(2600);
      await page.goto(`${STORE}?item=${item.slug}`);
      await expect(itemDialog(page, item.name).getByText(money(2600), { exact: true })).toBeVisible();

      // A slug another item has: refused, nothing saved, the typed slug kept and pointed at.
      await page.goto(EDITOR);
      form = editorForm(main);
      if (jsEnabled) await hydrated(form.getByRole("button", { name: "Save Changes" }));
      ours = form.getByRole("group", { name: `${item.name} (${item.id})` });
      await ours.getByLabel("Slug").fill("street-light-hoodie");
      expect((await pressEditorButton(page, form, "Save Changes")).status()).toBe(400);
      const message = form.getByRole("status");
      await expect(message).toHaveText(/^Save failed: /);
      await expect(message).toContainText('Save failed: Two items share the slug "street-light-hoodie".');
      await expect(ours.getByLabel("Slug")).toHaveValue("street-light-hoodie");
      await expect(ours.getByLabel("Slug")).toHaveAttribute("aria-invalid", "true");
      await expect(ours.getByLabel("Slug")).toHaveAccessibleDescription('Two items share the slug "street-light-hoodie".');
      const unchanged = await catalogue(request);
      expect(unchanged.find((i) => i.id === item.id)).toMatchObject({ slug: item.slug, price: 2600 });
      expect(unchanged.filter((i) => i.slug === "street-light-hoodie").map((i) => i.id)).toEqual(["SL-HOODIE"]);

      // Share pages: one per item in the saved catalogue.
      await pressEditorButton(page, form, "Generate Share Files");
      await expect(form.getByRole("status")).toHaveText(`Share pages generated (${unchanged.length})`);

      const shareRes = await request.get(`/share/merchandise/${item.slug}.html`);
      expect(shareRes.status()).toBe(200);
      expect(metaContent(await shareRes.text(), "og:title")).toBe(item.name);

      // Removed again: tick Remove and save.
      await page.goto(EDITOR);
      if (jsEnabled) await hydrated(editorForm(main).getByRole("button", { name: "Save Changes" }));
      ours = editorForm(main).getByRole("group", { name: `${item.name} (${item.id})` });
      await expect(ours.getByLabel("Slug")).toHaveValue(item.slug);
      await ours.getByLabel("Remove").check();
      form = await saveChanges(page, main);
      await expect(form.getByRole("group", { name: `${item.name} (${item.id})` })).toHaveCount(0);
      expect(await catalogue(request)).toEqual(before);
    } finally {
      // Leave the catalogue as it was even when a step above failed (the saved list, minus ours).
      const left = await catalogue(request);
      if (left.some((i) => i.id === item.id)) await saveCatalogueByApi(request, left.filter((i) => i.id !== item.id));
    }
  });
  expect((await catalogue(request)).map((i) => i.id)).not.toContain(item.id);
  const gone = await request.get(`/share/merchandise/${item.slug}.html`);
  expect(gone.status()).toBe(404);
  expect(await gone.text()).toContain("Item not found");
});

test("share page /share/merchandise/street-light-hoodie.html: link-preview tags, then on to the item in the store", async ({
  page,
  request,
}) => {
  const hoodie = await itemBySlug(request, "street-light-hoodie");
  const path = `/share/merchandise/${hoodie.slug}.html`;
  const res = await request.get(path);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("text/html; charset=utf-8");
  const html = await res.text();
  expect(metaContent(html, "og:type")).toBe("product");
  expect(metaContent(html, "og:title")).toBe(hoodie.name);
  expect(metaContent(html, "og:description")).toContain(hoodie.description.slice(0, 40));
  expect(metaContent(html, "og:url")).toBe(`${BASE_URL}${path}`);
  expect(metaContent(html, "og:image")).toBe(`${BASE_URL}${hoodie.image}`);
  expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
  expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${STORE}?item=${hoodie.slug}">`);
  expect(html).toContain(`<a href="${STORE}?item=${hoodie.slug}">`);

  // A browser (with or without JavaScript) follows the refresh to the item's dialog.
  await page.goto(path);
  await expect(page).toHaveURL(`${BASE_URL}${STORE}?item=${hoodie.slug}`);
  await expect(itemDialog(page, hoodie.name)).toBeVisible();

  const missing = await request.get("/share/merchandise/no-such-item.html");
  expect(missing.status()).toBe(404);
});
