import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { approveOrderByApi, badgeOrderById, orderFile, placeOrderByApi, signInTo, uniqueCode } from "../support/e2e-badges";
import { TMP_DIR } from "../support/e2e-env";

/**
 * The door phone's camera, for real: Chromium's fake capture device plays a video file as the
 * camera, and the file shows the entry QR code of the kit the site made. The page asks for the
 * camera (allowed on this screen only), reads frames with jsQR and checks the supporter in.
 */
const W = 640;
const H = 480;
const camera = path.join(TMP_DIR, `door-camera-${process.pid}.y4m`);

/** One 4:2:0 frame as a Y4M file (Chromium loops it): the picture in grey, no colour. */
function writeY4m(file: string, grey: Buffer) {
  const chroma = Buffer.alloc((W / 2) * (H / 2) * 2, 128);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\nFRAME\n`), grey, chroma]));
}

// The device opens its file when the page starts the camera; until then a blank frame is there.
fs.mkdirSync(TMP_DIR, { recursive: true });
writeY4m(camera, Buffer.alloc(W * H, 235));

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-dev-shm-usage",
      "--disable-gpu",
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${camera}`,
    ],
  },
});

test("with JavaScript, the camera reads the entry QR code and checks its supporter in", async ({ page, request, context }, info) => {
  test.skip(info.project.name !== "js-on", "the live camera needs JavaScript; without it the photo form is the camera");
  const code = uniqueCode(info);
  const id = await placeOrderByApi(request, { tierKey: "t4", name: "Camera Guest", email: `cam-${code.toLowerCase()}@example.org`, paymentReference: code });
  await approveOrderByApi(request, id);
  const qr = await sharp(orderFile(id, "entry-qr.png")).resize(300, 300, { kernel: "nearest" }).toBuffer();
  const frame = await sharp({ create: { width: W, height: H, channels: 3, background: "#ffffff" } })
    .composite([{ input: qr, left: (W - 300) / 2, top: (H - 300) / 2 }])
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect(frame.info.channels).toBe(1);
  writeY4m(camera, frame.data);
  await context.grantPermissions(["camera"]);

  const main = await signInTo(page, "/admin/check-in", true);
  const start = main.getByRole("button", { name: "Scan with the camera" });
  await hydrated(start);
  await start.click();
  await expect(main.getByRole("button", { name: "Stop the camera" })).toBeVisible();
  await expect(page.locator(".door-result")).toContainText("Checked in", { timeout: 15_000 });
  await expect(page.locator(".door-result")).toContainText(`Partner · ${id}`);
  expect((await badgeOrderById(id))!.checked_in_at).not.toBeNull();
  // The code stays in view: it is not sent again and again.
  await page.waitForTimeout(1500);
  await expect(page.locator(".door-result")).not.toContainText("Already");
  await main.getByRole("button", { name: "Stop the camera" }).click();
  await expect(start).toBeVisible();
});
