import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { approveOrderByApi, badgeOrderById, orderFile, placeOrderByApi, signInTo, uniqueCode } from "../support/e2e-badges";

/**
 * Event night at the door (/admin/check-in), with JavaScript on and off: a check-in by typed
 * reference, by name search, and from a photo of the kit's entry QR code (the page's camera
 * input: read in the browser with JavaScript, on the server without); a second scan is flagged
 * 'Already checked in at HH:MM', never accepted silently. The camera is allowed on this screen
 * only. Also the event settings form and the printable hard-copy badge list.
 */

async function approvedSupporter(request: APIRequestContext, info: Parameters<typeof uniqueCode>[0], fields: Record<string, unknown> = {}) {
  const code = uniqueCode(info);
  const id = await placeOrderByApi(request, {
    tierKey: "t3",
    name: `Door Guest ${code.slice(-4)}`,
    email: `door-${code.toLowerCase()}@example.org`,
    paymentReference: code,
    ...fields,
  });
  await approveOrderByApi(request, id);
  return id;
}

const result = (page: Page) => page.locator(".door-result");
const clock = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Nairobi", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(iso));

async function submitIn(form: Locator, button: string, js: boolean) {
  const b = form.getByRole("button", { name: button, exact: true });
  if (js) await hydrated(b);
  await b.click();
}

test("a supporter is checked in by reference once; the second time is flagged with the first time", async ({ page, request }, info) => {
  const js = info.project.name === "js-on";
  const id = await approvedSupporter(request, info, { hardCopy: true });
  const main = await signInTo(page, "/admin/check-in", js);
  const counts = async () => (await main.locator(".door-counts").innerText()).match(/(\d+) arrived of (\d+) approved/)!.slice(1).map(Number);
  const [, approvedBefore] = await counts();
  expect(approvedBefore).toBeGreaterThanOrEqual(1);

  const typed = main.locator("form.door-reference");
  await typed.getByLabel("Reference").fill(id.toLowerCase());
  await submitIn(typed, "Check in", js);
  await expect(result(page)).toContainText("Checked in");
  await expect(result(page)).toContainText(`${(await badgeOrderById(id))!.name}`);
  await expect(result(page)).toContainText(`Big Friend · ${id}`);
  await expect(result(page)).toContainText("Hand over a hard-copy badge");
  const at = (await badgeOrderById(id))!.checked_in_at!;
  expect(at).toBeTruthy();

  await typed.getByLabel("Reference").fill(id);
  await submitIn(typed, "Check in", js);
  await expect(result(page)).toContainText(`Already checked in at ${clock(at)}`);
  await expect(result(page)).toHaveClass(/door-result-already/);
  // Recorded once: the first time stands.
  expect((await badgeOrderById(id))!.checked_in_at).toBe(at);

  // An unknown reference is refused with the reason.
  await typed.getByLabel("Reference").fill("BO-ZZZZZZ");
  await submitIn(typed, "Check in", js);
  await expect(result(page)).toContainText("No approved order with that reference.");
});

test("a supporter found by name is checked in from the results, with a small portrait", async ({ page, request }, info) => {
  const js = info.project.name === "js-on";
  const { default: sharp } = await import("sharp");
  const face = await sharp({ create: { width: 900, height: 900, channels: 3, background: "#c0392b" } }).jpeg().toBuffer();
  const id = await approvedSupporter(request, info, { portraitDataUrl: `data:image/jpeg;base64,${face.toString("base64")}` });
  const name = (await badgeOrderById(id))!.name;
  const main = await signInTo(page, "/admin/check-in", js);
  const search = main.getByRole("search");
  await search.getByLabel("Name or reference").fill(name.toLowerCase());
  await submitIn(search, "Find", js);
  const found = main.getByRole("list", { name: "Supporters found" });
  await expect(found).toContainText(`${name} · Big Friend · ${id}`);
  const button = found.getByRole("button", { name: `Check in ${name} (${id})` });
  if (js) await hydrated(button);
  await button.click();
  await expect(result(page)).toContainText("Checked in");
  await expect(result(page)).toContainText(name);
  await expect.poll(async () => (await badgeOrderById(id))!.checked_in_at).not.toBeNull();
  // The portrait comes small (a door phone pays for its data), and only to staff.
  const portrait = result(page).getByRole("img", { name: `Portrait of ${name}` });
  await expect.poll(() => portrait.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(192);
  const src = (await portrait.getAttribute("src"))!;
  const asStaff = await page.request.get(src);
  expect(asStaff.headers()["content-type"]).toBe("image/webp");
  expect((await asStaff.body()).length).toBeLessThan(10_000);
  expect((await request.get(src)).status()).toBe(404);
});

test("a photo of the kit's entry QR code checks its supporter in (read in the browser with JavaScript, on the server without)", async ({ page, request }, info) => {
  const js = info.project.name === "js-on";
  const id = await approvedSupporter(request, info);
  const qr = orderFile(id, "entry-qr.png");
  const main = await signInTo(page, "/admin/check-in", js);
  const photo = main.locator("form.door-photo");
  const uploads: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && (r.postData() ?? "").includes("scan-photo")) uploads.push(r.url());
  });
  if (js) await hydrated(photo.getByRole("button", { name: "Check in from the photo" }));
  await photo.getByLabel("Or take a photo of the code").setInputFiles({ name: "ticket.png", mimeType: "image/png", buffer: qr });
  if (!js) await photo.getByRole("button", { name: "Check in from the photo" }).click();
  await expect(result(page)).toContainText("Checked in");
  await expect(result(page)).toContainText(id);
  expect((await badgeOrderById(id))!.checked_in_at).not.toBeNull();
  // With JavaScript the picture was read on the phone: only the ticket was sent.
  if (js) expect(uploads).toEqual([]);

  // The same code again is flagged.
  await photo.getByLabel("Or take a photo of the code").setInputFiles({ name: "again.png", mimeType: "image/png", buffer: qr });
  if (!js) await photo.getByRole("button", { name: "Check in from the photo" }).click();
  await expect(result(page)).toContainText("Already checked in at");

  // A picture with no code in it says so.
  if (!js) {
    await photo.getByLabel("Or take a photo of the code").setInputFiles({ name: "blank.png", mimeType: "image/png", buffer: orderFile(id, "badge.png") });
    await photo.getByRole("button", { name: "Check in from the photo" }).click();
    await expect(result(page)).toContainText("No QR code could be read in that picture.");
  }
});

test("the QR code opened by a phone's own camera app shows who it is and checks in only on the button", async ({ page, request }, info) => {
  const js = info.project.name === "js-on";
  const id = await approvedSupporter(request, info);
  const { default: jsQR } = await import("jsqr");
  const { default: sharp } = await import("sharp");
  const { data, info: size } = await sharp(orderFile(id, "entry-qr.png")).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const url = new URL(jsQR(new Uint8ClampedArray(data), size.width, size.height)!.data);
  expect(url.pathname).toBe("/admin/check-in");
  await signInTo(page, `/admin/check-in${url.search}`, js);
  const opened = page.getByRole("region", { name: "Ticket from a QR code" });
  await expect(opened).toContainText(id);
  expect((await badgeOrderById(id))!.checked_in_at).toBeNull();
  await submitIn(opened, `Check in ${(await badgeOrderById(id))!.name}`, js);
  await expect(result(page)).toContainText("Checked in");
  expect((await badgeOrderById(id))!.checked_in_at).not.toBeNull();

  // A ticket whose signature was altered is not one of ours.
  await page.goto(`/admin/check-in?ticket=${id}.${"A".repeat(22)}`);
  await expect(page.getByRole("region", { name: "Ticket from a QR code" })).toContainText("This ticket is not one of ours.");
});

test("the camera is allowed on the check-in screen only", async ({ request }) => {
  const door = await request.get("/admin/check-in");
  expect(door.headers()["permissions-policy"]).toContain("camera=(self)");
  for (const path of ["/", "/event", "/admin", "/admin/badge-orders"]) {
    const res = await request.get(path);
    expect(res.headers()["permissions-policy"], path).toContain("camera=()");
  }
});

test("staff set the event on a form; the event page shows it", async ({ page }, info) => {
  const js = info.project.name === "js-on";
  const main = await signInTo(page, "/admin/event", js);
  const form = main.locator("form.event-form");
  // A refused value keeps what was typed and says why.
  await form.getByLabel("Raise target (KES)").fill("0");
  await submitIn(form, "Save the event", js);
  await expect(form.locator("#raiseTarget-error")).toHaveText("Raise target must be at least KES 1.");
  await expect(form.getByLabel("Raise target (KES)")).toHaveValue("0");
  // Both projects save the same values (the other browser tests read this record too).
  await form.getByLabel("Raise target (KES)").fill("468500");
  await form.getByLabel("Start time (Nairobi)").fill("18:00");
  await submitIn(form, "Save the event", js);
  await expect(form.getByRole("status")).toContainText("Saved.");
  await page.goto("/event");
  await expect(page.locator(".event-hero")).toContainText("23 November 2025 at 18:00 · Nairobi");
});

test("the badge table's list prints approved hard-copy requests by tier, without the staff menu", async ({ page, request }, info) => {
  const js = info.project.name === "js-on";
  const wants = await approvedSupporter(request, info, { hardCopy: true, tierKey: "t5" });
  const without = await approvedSupporter(request, info, { tierKey: "t5" });
  const main = await signInTo(page, "/admin/badge-table", js);
  const champion = main.getByRole("region", { name: /^Champion \(\d+\)$/ });
  await expect(champion).toContainText(wants);
  await expect(main).not.toContainText(without);
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".staff-header")).toBeHidden();
  await expect(champion.getByRole("row").filter({ hasText: wants })).toBeVisible();
});

test("an approved supporter's order page shows the same entry code as the kit email, with the reference in words", async ({ page, request }, info) => {
  const id = await approvedSupporter(request, info);
  const row = (await badgeOrderById(id))!;
  await page.goto(`/orders/${id}?t=${row.asset_token}`);
  const box = page.getByRole("region", { name: "Your entry code" });
  await expect(box).toContainText(`Give your reference: ${id} (`);
  const src = await box.getByRole("img", { name: `Entry QR code for ${id}` }).getAttribute("src");
  const svg = decodeURIComponent(src!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ""));
  const { default: jsQR } = await import("jsqr");
  const { default: sharp } = await import("sharp");
  const read = async (img: Buffer) => {
    const { data, info: size } = await sharp(img, { density: 300 }).flatten({ background: "#fff" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return jsQR(new Uint8ClampedArray(data), size.width, size.height)?.data;
  };
  const fromPage = await read(Buffer.from(svg));
  expect(fromPage).toContain(`/admin/check-in?ticket=${id}.`);
  expect(fromPage).toBe(await read(orderFile(id, "entry-qr.png")));
});
