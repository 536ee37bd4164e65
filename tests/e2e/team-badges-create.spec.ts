import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { expect, test } from "../support/e2e-fixtures";
import { ADMIN_KEY, TMP_DIR } from "../support/e2e-env";
import { startSiteProcess, type SiteProcess } from "../support/site-process";

// Staff give an old site's badge its home here, JavaScript off: a badge created with the id
// holders already shared (b6d56) and its picture uploaded; then every address people have for it
// answers. A site of its own, so the shared site's badge counts stay as other tests expect.
let site: SiteProcess;
let origin: string;

test.describe.configure({ mode: "serial", timeout: 90_000 });
test.skip(({ javaScriptEnabled }) => javaScriptEnabled !== false, "a plain form: runs with JavaScript off");

test.beforeAll(async () => {
  site = await startSiteProcess("team-badges-create");
  origin = `http://127.0.0.1:${site.port}`;
});
test.afterAll(async () => {
  await site?.stop();
});

test("staff create a badge with a chosen id and its picture; /badges?id=, the share page, the picture and the Open Badges record answer", async ({ page, request }) => {
  // The picture as staff have it: a photo-sized JPEG, not square.
  const file = path.join(TMP_DIR, `badge-upload-${process.pid}.jpg`);
  fs.mkdirSync(TMP_DIR, { recursive: true });
  fs.writeFileSync(file, await sharp({ create: { width: 900, height: 600, channels: 3, background: "#2a7f62" } }).jpeg().toBuffer());

  await page.goto(`${origin}/admin/team-badges`);
  const main = page.getByRole("main");
  await main.getByLabel("Admin key").fill(ADMIN_KEY);
  await main.getByRole("button", { name: "Sign in" }).click();
  const create = main.getByRole("region", { name: "Create a team badge" });
  await expect(create).toBeVisible();

  await create.getByLabel("Badge id (optional)").fill("b6d56");
  await create.getByLabel("Title", { exact: true }).fill("Team Lead");
  await create.getByLabel("Team (subtitle)").fill("Articles and Blogs");
  await create.getByLabel("Category").selectOption({ label: "Community" });
  await create.getByLabel("Description").fill("Leads the articles and blogs team.");
  await create.getByLabel("Issued to a holder").check();
  await create.getByLabel("Holder (when issued)").fill("Amani Wekesa");
  await create.getByLabel("Issue date (when issued)").fill("Aug 19, 2025");
  await create.getByLabel(/^Picture/).setInputFiles(file);
  await create.getByRole("button", { name: "Create badge" }).click();

  const card = page.getByRole("main").getByRole("region", { name: /Team Lead b6d56$/ });
  await expect(card.getByRole("status")).toHaveText("Created badge b6d56.");

  // The id a holder shared on LinkedIn opens the badge, verified.
  await page.goto(`${origin}/badges?id=b6d56`);
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Amani Wekesa");
  await expect(dialog).toContainText("b6d56");
  await expect(page.getByRole("main")).toContainText("Valid");

  const share = await request.get(`${origin}/share/b6d56.html`);
  expect(share.status()).toBe(200);
  const html = await share.text();
  expect(html).toContain("Team Lead: Amani Wekesa");
  expect(html).toContain("/badges?id=b6d56");

  // The uploaded picture, re-encoded: square, 1080px, the whole photo kept.
  const picture = await request.get(`${origin}/open/badges/b6d56.png`);
  expect(picture.status()).toBe(200);
  expect(picture.headers()["content-type"]).toBe("image/png");
  const png = await picture.body();
  expect(await sharp(png).metadata()).toMatchObject({ format: "png", width: 1080, height: 1080 });
  const [r, g, b] = await sharp(png).extract({ left: 540, top: 540, width: 1, height: 1 }).removeAlpha().raw().toBuffer();
  expect([r, g, b].every((v, i) => Math.abs(v! - [0x2a, 0x7f, 0x62][i]!) <= 4)).toBe(true);

  const record = await request.get(`${origin}/badges/assertions/b6d56.json`);
  expect(record.status()).toBe(200);
  expect(await record.json()).toMatchObject({ type: "Assertion", badge: expect.stringContaining("/badges/classes/b6d56"), recipient: { hashed: true } });
  await page.goto(`${origin}/badges/verify/b6d56`);
  await expect(page.locator(".verify-verdict")).toHaveText("Valid");
});
