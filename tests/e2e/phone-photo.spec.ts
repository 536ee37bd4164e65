import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { portraitTooLargeMessage } from "../../app/features/event-badges/portrait";
import { badgeOrdersByEmail, fillOrder, imageInfo, openTierDialog, orderFile, successReference, uniqueCode } from "../support/e2e-badges";
import { bandColour, cameraPhoto } from "../support/camera-photo";
import { SITE_PORT, TMP_DIR } from "../support/e2e-env";
import { expect, test } from "../support/e2e-fixtures";

/**
 * Any photo a supporter's phone takes, on a 360x740 screen: a 12-megapixel JPEG of about 10 MB
 * (what mid-range phones save, stored on its side with an EXIF orientation) becomes the order's
 * 720x720 portrait, with JavaScript (cropped and re-encoded in the browser) and without (sent
 * whole, read as it arrives); a 30 MB one comes back with its size and the form kept.
 */
test.use({ viewport: { width: 360, height: 740 } });

/** The photo as a file on disk, as a phone's file picker hands it over. */
async function photoFile(name: string, options: Parameters<typeof cameraPhoto>[0] = {}) {
  const photo = await cameraPhoto(options);
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const file = path.join(TMP_DIR, `${process.pid}-${name}`);
  fs.writeFileSync(file, photo.buffer);
  return { file, bytes: photo.buffer.length };
}

test("a 10 MB 4000x3000 phone photo gives an order with a 720x720 portrait, upright", async ({ page, jsEnabled, uniqueEmail }, info) => {
  test.setTimeout(90_000);
  const { file, bytes } = await photoFile(`ten-${info.project.name}.jpg`);
  expect(bytes, "about 10 MB, as a phone saves it").toBeGreaterThan(9_000_000);
  const posted: number[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname.startsWith("/event")) posted.push(r.postDataBuffer()?.length ?? 0);
  });

  const email = uniqueEmail("tenmb");
  const dialog = await openTierDialog(page, "Partner", jsEnabled);
  await fillOrder(dialog, { name: "Photo Phone", email, code: uniqueCode(info) });
  await dialog.getByLabel("Portrait (optional)").setInputFiles(file);
  if (jsEnabled) {
    // The crop step reads it (no 'smaller than 6MB'), and the picture loads.
    await expect(dialog.getByRole("img", { name: /^Portrait crop\./ })).toBeVisible();
    await expect(dialog.getByRole("slider", { name: "Zoom" })).toBeEnabled({ timeout: 20_000 });
    await expect(dialog.getByText("smaller than 6MB")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Use this portrait" }).click();
    await expect(dialog.getByText("Portrait ready")).toBeVisible();
  }
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  const reference = await successReference(dialog);
  fs.rmSync(file, { force: true });

  const [row] = badgeOrdersByEmail(email);
  expect(row).toMatchObject({ id: reference, portrait_file: "portrait.jpg" });
  const stored = orderFile(reference, "portrait.jpg");
  expect(await imageInfo(stored)).toEqual({ format: "jpeg", width: 720, height: 720 });
  // Turned by its EXIF orientation: the scene's red half on top, the blue below.
  const [top, bottom] = [await bandColour(stored, "top"), await bandColour(stored, "bottom")];
  expect(top[0]!, `top ${top}`).toBeGreaterThan(top[2]! + 60);
  expect(bottom[2]!, `bottom ${bottom}`).toBeGreaterThan(bottom[0]! + 60);
  if (jsEnabled) {
    // Only the cropped picture went up, never the 10 MB original.
    expect(posted.length).toBe(1);
    expect(posted[0]!, `the order was ${posted[0]} bytes`).toBeLessThan(1_000_000);
  }
});

test("without JavaScript, a 30 MB photo brings the form back with every field kept and the photo's size", async ({
  page,
  jsEnabled,
  uniqueEmail,
}, info) => {
  test.skip(jsEnabled, "with JavaScript the crop step sends a cropped picture whatever the original weighs");
  test.setTimeout(90_000);
  const { file, bytes } = await photoFile("thirty.jpg", { width: 6000, height: 4500, noise: 200, quality: 98 });
  expect(bytes).toBeGreaterThan(28_000_000);
  const email = uniqueEmail("thirtymb");
  const code = uniqueCode(info);
  const dialog = await openTierDialog(page, "Big Friend", jsEnabled);
  await fillOrder(dialog, { name: "Big Photo", email, phone: "0711 222 333", code, notes: "Kept after the photo.", hardCopy: true });
  await dialog.getByLabel("Portrait (optional)").setInputFiles(file);
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  fs.rmSync(file, { force: true });

  const sentence = portraitTooLargeMessage(bytes);
  expect(sentence).toMatch(/^Your photo is 3\d MB; the limit is 25 MB\. Choose a smaller photo, or send the order without one and reply to our email with it\.$/);
  await expect(dialog.getByText(sentence, { exact: true })).toBeVisible();
  await expect(dialog.getByLabel("Full name")).toHaveValue("Big Photo");
  await expect(dialog.getByLabel("Email", { exact: true })).toHaveValue(email);
  await expect(dialog.getByLabel("Phone (optional)")).toHaveValue("0711 222 333");
  await expect(dialog.getByLabel("Payment confirmation code")).toHaveValue(code);
  await expect(dialog.getByLabel("Notes (optional)")).toHaveValue("Kept after the photo.");
  await expect(dialog.getByLabel("I would like a printed hard-copy badge too")).toBeChecked();
  expect(badgeOrdersByEmail(email)).toEqual([]);
});

test("a 9 MB JSON body to /api/badge_orders.php is answered 413 with a sentence, read by the client (no reset connection)", async ({}, info) => {
  test.skip(info.project.name !== "js-on", "no browser: runs once");
  const body = Buffer.alloc(9 * 1024 * 1024, "A");
  const outcome = await new Promise<{ status?: number; text?: string; error?: string }>((resolve) => {
    let answer: { status?: number; text?: string } = {};
    const req = http.request(
      {
        host: "127.0.0.1",
        port: SITE_PORT,
        path: "/api/badge_orders.php",
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": body.length, "X-Forwarded-For": "10.250.1.1" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        // A reset after the answer still shows as an error on the request: wait a moment for one.
        res.on("end", () => {
          answer = { status: res.statusCode, text };
          setTimeout(() => resolve(answer), 300);
        });
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ ...answer, error: e.code ?? e.message }));
    req.end(body);
  });
  expect(outcome.error, "the client could send its body and read the answer").toBeUndefined();
  expect(outcome.status).toBe(413);
  expect(JSON.parse(outcome.text!)).toEqual({ ok: false, error: "Request body is too large." });
});
