import type { Locator, Page } from "@playwright/test";
import { hydrated } from "../support/e2e-fixtures";
import { BASE_URL } from "../support/e2e-env";
import { subscriberByEmail } from "../support/e2e-db";
import { mailFor, waitForMail } from "../support/e2e-mail";
import { signInTo } from "../support/e2e-badges";
import { expect, postRow, postUrl, test, uniqueId, withBlogListLock } from "../support/e2e-blog";

const SCREEN = "/blogs/admin";
const UNSAFE_HTML =
  '<p>Safe</p><script>window.__xss=1</script><img src="x" onerror="window.__xss=2">' +
  '<a href="javascript:window.__xss=3">bad link</a><a href="https://example.org">ok</a>';

/** The editor form, loaded afresh (inside the list lock: what it posts back is the whole list). */
async function openEditor(page: Page, jsEnabled: boolean) {
  await page.goto(SCREEN);
  const editor = page.getByRole("form", { name: "Blog posts" });
  const save = editor.getByRole("button", { name: "Save Changes" });
  await expect(save).toBeVisible();
  if (jsEnabled) await hydrated(save);
  return { editor, save, status: editor.locator(".editor-bar").getByRole("status") };
}

async function fill(group: Locator, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) await group.getByLabel(label, { exact: true }).fill(value);
}

test("staff add a post with unsafe HTML (shown sanitised), notify subscribers (mail arrives), remove it", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  test.setTimeout(60_000);
  const id = uniqueId(info);
  const slug = `e2e-unsafe-${id}`;
  const title = `Unsafe HTML check ${id}`;

  // A subscriber of this test's own, who should hear about the new post.
  const email = uniqueEmail("blog-notify");
  const sub = await request.post("/api/subscribe.php", { data: { email, source: "blogs:index" } });
  expect(sub.status(), await sub.text()).toBe(200);
  const subscriber = subscriberByEmail(email)!;
  expect(subscriber).toMatchObject({ status: "active" });

  // Signed out, the screen shows the sign-in form, which comes back here.
  const main = await signInTo(page, SCREEN, jsEnabled);
  await expect(page).toHaveURL(`${BASE_URL}${SCREEN}`);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Blog editor");
  const tools = page.getByRole("banner").getByRole("navigation", { name: "Staff tools" });
  await expect(tools.getByRole("link", { name: "Activity" })).toHaveAttribute("href", "/admin/activity");
  await expect(tools.getByRole("link", { name: "Badge orders" })).toHaveAttribute("href", "/admin/badge-orders");
  await expect(tools.getByRole("link", { name: "Merchandise editor" })).toHaveAttribute("href", "/merchandise/admin");

  await withBlogListLock(async () => {
    const { editor, save, status } = await openEditor(page, jsEnabled);
    const fresh = editor.getByRole("group", { name: "Add a new post" });
    await expect(fresh.getByLabel("Slug", { exact: true })).toHaveValue("");
    await fill(fresh, {
      Slug: slug,
      Title: title,
      Author: "Test Staff",
      Date: "2025-12-01",
      Tags: " e2e-admin ,  , sanitiser ",
      Summary: "A post with unsafe HTML in its content.",
      "Content (HTML)": UNSAFE_HTML,
    });
    await save.click();
    await expect(status).toHaveText("Saved successfully");
  });

  // Saved sanitised: no script, handler or javascript: link is stored.
  const row = postRow(slug)!;
  expect(row).toMatchObject({ title, tags: JSON.stringify(["e2e-admin", "sanitiser"]) });
  expect(row.content_html).toContain("<p>Safe</p>");
  expect(row.content_html).not.toMatch(/<script|onerror|javascript:|__xss/i);

  // The saved post has its own fieldset now, with links to it and a notify button.
  const saved = main.getByRole("group", { name: title });
  await expect(saved.getByLabel("Slug", { exact: true })).toHaveValue(slug);
  await expect(saved.getByLabel("Tags", { exact: true })).toHaveValue("e2e-admin, sanitiser");
  await expect(saved.getByRole("link", { name: "View post" })).toHaveAttribute("href", `/blogs/${slug}`);
  await expect(saved.getByRole("link", { name: "Share page" })).toHaveAttribute("href", `/share/blogs/${slug}.html`);
  await expect(saved.getByText("Subscribers have not been notified about this post.")).toBeVisible();

  // The post as readers get it: the safe parts shown, nothing runs.
  const reader = await page.context().newPage();
  const html = await (await request.get(`/blogs/${slug}`)).text();
  expect(html).not.toMatch(/__xss|onerror|javascript:/i);
  await reader.goto(`/blogs/${slug}`);
  await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
  const body = reader.locator(".post-content");
  await expect(body.getByText("Safe", { exact: true })).toBeVisible();
  const bad = body.locator("a", { hasText: "bad link" });
  await expect(bad).toHaveText("bad link");
  expect((await bad.getAttribute("href")) ?? "").not.toMatch(/^\s*javascript:/i);
  const ok = body.getByRole("link", { name: "ok", exact: true });
  await expect(ok).toHaveAttribute("href", "https://example.org");
  await expect(ok).toHaveAttribute("rel", /\bnoopener\b/);
  await expect(ok).toHaveAttribute("target", "_blank");
  await expect(body.locator("script")).toHaveCount(0);
  await expect(reader.locator("[onerror], [onload], [onclick]")).toHaveCount(0);
  await expect(reader.locator('a[href^="javascript:" i]')).toHaveCount(0);
  if (jsEnabled) {
    await hydrated(reader.getByRole("button", { name: "Copy link" }));
    await reader.waitForLoadState("networkidle");
    expect(await reader.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  }
  await reader.close();

  // Notify Subscribers: counts only, and the mail reaches our subscriber. (In the lock too: a
  // list saved meanwhile by another test would redraw the editor, and the message with it.)
  await withBlogListLock(async () => {
    const { editor } = await openEditor(page, jsEnabled);
    const mine = editor.getByRole("group", { name: title });
    const notify = mine.getByRole("button", { name: "Notify Subscribers" });
    if (jsEnabled) await hydrated(notify);
    await notify.click();
    // Every send asks first, with how many people would get it.
    await mine.getByRole("button", { name: /^Send to \d+ subscribers?$/ }).click();
    const notified = editor.getByRole("group", { name: title }).locator(".notify-row").getByRole("status");
    await expect(notified).toHaveText(/^Notified subscribers: [1-9]\d* subscribers? queued$/);
    await expect(notified).not.toContainText("@");
  });

  const mail = await waitForMail((m) => m.to.includes(email) && m.subject.includes(title));
  expect(mail.subject).toMatch(new RegExp(`^New on the .+ blog: ${title}$`));
  expect(mail.text).toContain(postUrl(slug));
  const unsubscribeUrl = `${BASE_URL}/unsubscribe?token=${subscriber.token}`;
  expect(mail.text).toContain(unsubscribeUrl);
  expect(mail.html).toContain(unsubscribeUrl);
  expect(mail.headers["list-unsubscribe"]).toBe(`<${unsubscribeUrl}>`);

  // Remove the post again: tick Remove, Save Changes.
  await withBlogListLock(async () => {
    const { editor, save, status } = await openEditor(page, jsEnabled);
    const mine = editor.getByRole("group", { name: title });
    // Notified once: the fieldset says so.
    await expect(mine.locator(".notify-status")).toContainText(/Last notified .* EAT: \d+ subscribers?/);
    // A second 'Notify Subscribers' asks first (with or without JavaScript) and sends nothing.
    const sentBefore = (await mailFor(email)).length;
    const notifyAgain = mine.getByRole("button", { name: "Notify Subscribers" });
    if (jsEnabled) await hydrated(notifyAgain);
    await notifyAgain.click();
    const ask = editor.getByRole("group", { name: /^Subscribers were already notified about this post on .+ EAT\. Send it to them again\?$/ });
    await expect(ask).toBeVisible();
    await expect(ask.getByRole("button", { name: "Send again" })).toBeVisible();
    await ask.getByRole("link", { name: "Cancel" }).click();
    await expect(ask).toBeHidden();
    expect((await mailFor(email)).length).toBe(sentBefore);
    await mine.getByRole("checkbox", { name: "Remove" }).check();
    await save.click();
    await expect(status).toHaveText("Saved successfully");
    await expect(editor.getByRole("group", { name: title })).toHaveCount(0);
  });
  expect(postRow(slug)).toBeUndefined();
  expect((await request.get(`/blogs/${slug}`)).status()).toBe(404);
});

test("the blog editor refuses a post with a bad slug and keeps what was typed", async ({ page, jsEnabled }, info) => {
  const id = uniqueId(info);
  const title = `Bad slug ${id}`;
  await signInTo(page, SCREEN, jsEnabled);
  await withBlogListLock(async () => {
    const { editor, save, status } = await openEditor(page, jsEnabled);
    const fresh = editor.getByRole("group", { name: "Add a new post" });
    const slugField = fresh.getByLabel("Slug", { exact: true });
    await fill(fresh, { Title: title, "Content (HTML)": "<p>Body</p>" });
    // The browser's own pattern check would stop this form; staff may have an old browser.
    await slugField.evaluate((el) => el.removeAttribute("pattern"));
    await slugField.fill("Bad Slug!");
    await save.click();
    await expect(status).toHaveText(/^Save failed: Post \d+ \(Bad Slug!\): Slugs use lower-case letters/);
    const typed = editor.getByRole("group", { name: title });
    await expect(typed.getByLabel("Slug", { exact: true })).toHaveValue("Bad Slug!");
    await expect(typed.getByLabel("Slug", { exact: true })).toHaveAttribute("aria-invalid", "true");
  });
  const posts = (await (await page.request.get("/api/blogs.php")).json()) as { title: string }[];
  expect(posts.map((p) => p.title)).not.toContain(title);
});
