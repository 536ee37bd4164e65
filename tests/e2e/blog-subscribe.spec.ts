import type { Page } from "@playwright/test";
import { hydrated, markWindow } from "../support/e2e-fixtures";
import { BASE_URL } from "../support/e2e-env";
import { subscriberByEmail } from "../support/e2e-db";
import { expect, SUBSCRIBED, test } from "../support/e2e-blog";

/** Subscribes `email` with the blog's box on the page open now; returns to the same address. */
async function subscribeWithBox(page: Page, email: string, jsEnabled: boolean, path: string) {
  const box = page.getByRole("region", { name: "New posts by email" });
  const field = box.getByLabel("Email address");
  const button = box.getByRole("button", { name: "Subscribe" });
  await expect(field).toHaveAttribute("required", "");
  await expect(field).toHaveAttribute("type", "email");
  if (jsEnabled) {
    // Never greyed out: an empty field is the browser's check to word, and nothing is sent.
    await hydrated(button);
    await expect(button).toBeEnabled();
    await button.click();
    expect(await field.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    await expect(box.getByText(SUBSCRIBED)).toHaveCount(0);
    await field.fill(email);
    const stillSamePage = await markWindow(page);
    await button.click();
    await expect(box.getByRole("status")).toHaveText(SUBSCRIBED);
    await expect(field).toHaveValue("");
    await stillSamePage();
  } else {
    await field.fill(email);
    await button.click();
    await expect(box.getByRole("status")).toHaveText(SUBSCRIBED);
    // The reloaded page opens at the box and its result, not at the top.
    await expect(box.getByRole("status")).toBeInViewport();
  }
  await expect(page).toHaveURL(jsEnabled ? `${BASE_URL}${path}` : `${BASE_URL}${path}#subscribe`);
  // The footer's own box says nothing about this sign-up.
  await expect(page.getByRole("contentinfo").getByText(/Subscribed!/)).toHaveCount(0);
}

test("subscribe from a post: the source is blogs:{slug}", async ({ page, jsEnabled, uniqueEmail }) => {
  const slug = "campus-mission-week";
  const email = uniqueEmail("blog-post");
  await page.goto(`/blogs/${slug}`);
  await expect(page.getByRole("region", { name: "New posts by email" }).locator('input[name="source"]')).toHaveValue(`blogs:${slug}`);
  await subscribeWithBox(page, email, jsEnabled, `/blogs/${slug}`);
  expect(subscriberByEmail(email)).toMatchObject({ email, status: "active", source: `blogs:${slug}` });
  // The post is still there to read, its polls and reactions too.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Campus mission week/);
  await expect(page.getByRole("region", { name: "React to this post" })).toBeVisible();
});

test("subscribe from /blogs: the source is blogs:index", async ({ page, jsEnabled, uniqueEmail }) => {
  const email = uniqueEmail("blog-index");
  await page.goto("/blogs");
  await subscribeWithBox(page, email, jsEnabled, "/blogs");
  expect(subscriberByEmail(email)).toMatchObject({ email, status: "active", source: "blogs:index" });
  await expect(page.getByRole("main").getByRole("article").first()).toBeVisible();
});
