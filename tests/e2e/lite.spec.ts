import { expect, test } from "../support/e2e-fixtures";
import { BASE_URL } from "../support/e2e-env";
import { subscriberByEmail } from "../support/e2e-db";

/**
 * Lite mode (data saver): pages with no JavaScript at all, chosen in the footer or asked for by
 * the browser's Save-Data header; every journey still works, and nobody else gets a Lite page.
 */
test("Lite mode from the footer: no scripts on any page, the footer sign-up still works, 'Full site' brings scripts back", async ({ page, uniqueEmail }) => {
  // /blogs hydrates (/about is sent without scripts even on the full site).
  await page.goto("/blogs");
  expect(await page.locator("script").count()).toBeGreaterThan(0);
  await page.getByRole("contentinfo").getByRole("link", { name: "Lite mode (saves data)" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/blogs`);
  await expect(page.getByRole("contentinfo").getByText("Lite mode: no scripts, less data.")).toBeVisible();
  expect(await page.locator("script").count()).toBe(0);
  await page.goto("/merchandise");
  expect(await page.locator("script").count()).toBe(0);

  // A journey without scripts: the footer sign-up is a plain form post.
  const email = uniqueEmail("lite");
  await page.goto("/about");
  const footer = page.getByRole("contentinfo");
  await footer.getByLabel("Email address").fill(email);
  await footer.locator('button[type="submit"]').click();
  await expect(page.getByRole("main").getByText("Subscribed! Check your inbox soon.")).toBeVisible();
  expect(subscriberByEmail(email)).toMatchObject({ email, status: "active" });

  await page.goto("/blogs");
  await page.getByRole("contentinfo").getByRole("link", { name: "Full site" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/blogs`);
  expect(await page.locator("script").count()).toBeGreaterThan(0);
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "Lite mode (saves data)" })).toBeVisible();
});

test("every Lite page says 'Lite mode on' at the top, with the way back (no script needed)", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/merchandise");
  await expect(page.getByRole("complementary", { name: "Lite mode" })).toHaveCount(0);
  await page.getByRole("contentinfo").getByRole("link", { name: "Lite mode (saves data)" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/merchandise`);
  for (const path of ["/merchandise", "/event", "/admin"]) {
    if (path !== "/merchandise") await page.goto(path);
    const notice = page.getByRole("complementary", { name: "Lite mode" });
    await expect(notice, path).toContainText("Lite mode on");
    // At the top: the first thing on the screen.
    expect((await notice.boundingBox())!.y, path).toBeLessThan(5);
    expect(await page.locator("script").count(), path).toBe(0);
  }
  await page.getByRole("link", { name: "Turn Lite mode off" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/admin`);
  await expect(page.getByRole("complementary", { name: "Lite mode" })).toHaveCount(0);
  expect(await page.locator("script").count()).toBeGreaterThan(0);
});

test("Save-Data: on gets the Lite page (under 40 kB in all for /), and the next visitor without it gets the full page", async ({ browser, clientIp }, info) => {
  test.skip(info.project.name !== "js-on", "one browser is enough: the point is what the server sends");
  const saver = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": clientIp, "Save-Data": "on" } });
  const page = await saver.newPage();
  const transferred: Promise<number>[] = [];
  page.on("requestfinished", (r) => transferred.push(r.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)));
  const res = await page.goto("/");
  expect(res?.headers()["vary"]).toMatch(/Save-Data/);
  await page.waitForLoadState("load");
  expect(await page.locator("script").count()).toBe(0);
  const bytes = (await Promise.all(transferred)).reduce((a, b) => a + b, 0);
  console.log(`[lite] / with Save-Data: ${transferred.length} requests, ${bytes} bytes transferred`);
  expect(bytes).toBeLessThan(40_000);
  // Its 'Full site' link wins over the header (/ is sent without scripts either way: the full
  // page is the one that offers Lite mode).
  await page.getByRole("contentinfo").getByRole("link", { name: "Full site" }).click();
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "Lite mode (saves data)" })).toBeVisible();
  await saver.close();

  // The page cache keeps the two apart: a visitor without Save-Data gets the full /.
  const plain = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": clientIp } });
  const other = await plain.newPage();
  await other.goto("/");
  await expect(other.getByRole("contentinfo").getByRole("link", { name: "Lite mode (saves data)" })).toBeVisible();
  await expect(other.getByRole("complementary", { name: "Lite mode" })).toHaveCount(0);
  await plain.close();
});

test("the Lite switch only ever sends the visitor back to a page on this site", async ({ request }) => {
  for (const to of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
    const res = await request.get(`/lite?on=1&to=${encodeURIComponent(to)}`, { maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers()["location"]).toBe("/");
  }
  const ok = await request.get(`/lite?on=0&to=${encodeURIComponent("/blogs?tag=campus")}`, { maxRedirects: 0 });
  expect(ok.headers()["location"]).toBe("/blogs?tag=campus");
  expect(ok.headers()["set-cookie"]).toMatch(/^lite=0; Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly/);
});
