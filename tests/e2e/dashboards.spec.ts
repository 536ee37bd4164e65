import crypto from "node:crypto";
import type { APIRequestContext, Locator, TestInfo } from "@playwright/test";
import { signInTo } from "../support/e2e-badges";
import { expect, hydrated, test } from "../support/e2e-fixtures";
import { BASE_URL } from "../support/e2e-env";

/**
 * Staff dashboards (issue 6): /admin/activity and /admin/engagement after sign-in, with
 * JavaScript on and off. Every control is a GET form on the first and a POST form on the second,
 * so both projects run the same journey.
 */

// Headless Chromium and Playwright's own request client are both crawlers to the site, so
// tracked events are sent the way a phone's browser sends them.
const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

const tag = (info: TestInfo) => `${info.project.name.replace(/[^a-z]/g, "")}${crypto.randomBytes(3).toString("hex")}`;
const cid = () => crypto.randomBytes(16).toString("hex");

async function track(request: APIRequestContext, client: string, body: Record<string, unknown>) {
  const res = await request.post("/api/track.php", { data: body, headers: { "user-agent": PHONE, "x-client-id": client } });
  expect(res.status(), await res.text()).toBe(200);
  expect(await res.json()).toEqual({ ok: true, counted: true });
}

/** The row of `table` whose first cell is `name`. */
const rowOf = (table: Locator, name: string) =>
  table.getByRole("row").filter({ has: table.page().getByRole("rowheader", { name, exact: true }) });

async function submit(button: Locator, jsEnabled: boolean) {
  if (jsEnabled) await hydrated(button);
  await button.click();
}

test("staff: activity dashboard shows what was tracked; period, unique, window and log filter are GET forms", async ({
  page,
  request,
  jsEnabled,
  clientIp,
  problems,
}, info) => {
  const t = tag(info);
  const slug = `e2e-post-${t}`;
  const eventName = `e2e.dash.${t}`;
  const pageName = `e2e.page.${t}`;
  const [reader, sharer] = [cid(), cid()];
  await track(request, reader, { type: "blog.view", slug, src: "site" });
  await track(request, sharer, { type: "blog.view", slug, src: "share" });
  await track(request, reader, { type: "event", name: eventName, meta: { tier: "t3" } });
  await track(request, reader, { type: "event", name: eventName });
  await track(request, reader, { type: "page.view", page: pageName, path: "/e2e", ref: "https://www.e2e-referrer.example/some/path?q=1" });
  // A crawler's view is not counted.
  const bot = await request.post("/api/track.php", {
    data: { type: "blog.view", slug, src: "site" },
    headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "x-client-id": cid() },
  });
  expect(await bot.json()).toEqual({ ok: true, counted: false });
  await page.waitForTimeout(1300); // tracking is written in one-second batches

  const main = await signInTo(page, "/admin/activity", jsEnabled);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Activity & analytics");
  await expect(main.getByText("Figures for the last 30 days.")).toBeVisible();

  const live = main.getByRole("region", { name: "Active now" });
  await expect(live.locator(".kpi-value")).toHaveText(/^[1-9]\d*$/);
  await expect(live).toContainText("in the last 5 minutes");

  const blogViews = main.getByRole("table", { name: "Blog views, the last 30 days" });
  await expect(blogViews.getByRole("columnheader")).toHaveText(["Slug", "Total", "Unique", "Site", "Share", "Last seen (EAT)"]);
  await expect(rowOf(blogViews, slug).getByRole("cell")).toHaveText(["2", "2", "1", "1", /\d{1,2} \w{3} \d{4}, \d\d:\d\d/]);
  const events = main.getByRole("table", { name: "Top events, the last 30 days" });
  await expect(rowOf(events, eventName).getByRole("cell")).toHaveText(["2", "1", /\d\d:\d\d$/]);
  const pages = main.getByRole("table", { name: "Page views, the last 30 days" });
  await expect(rowOf(pages, pageName).getByRole("cell")).toHaveText(["1", "1", /\d\d:\d\d$/]);
  const referrers = main.getByRole("table", { name: "Top referrers, the last 30 days" });
  await expect(rowOf(referrers, "www.e2e-referrer.example")).toHaveCount(1);

  // The chart: an SVG image with a title and a summary, and its numbers as a table.
  const chart = main.getByRole("img", { name: "Page views per day, last 30 days" });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleName("Page views per day, last 30 days");
  await expect(chart).toHaveAccessibleDescription(/page views from .* \(UTC days\)/);
  await expect(chart.locator("rect.chart-bar")).toHaveCount(30);
  const numbers = main.getByRole("table", { name: "Page views per day, last 30 days" });
  await expect(numbers).toBeHidden();
  await main.getByText("Show the numbers").click();
  await expect(numbers).toBeVisible();
  await expect(numbers.locator("tbody tr")).toHaveCount(30);

  // Period: all time, ranked by unique visitors.
  const period = main.getByRole("form", { name: "Reporting period" });
  await period.getByLabel("Since (days)").fill("0");
  await period.getByLabel("Rank by unique visitors").check();
  await submit(period.getByRole("button", { name: "Apply" }), jsEnabled);
  await expect(page).toHaveURL(`${BASE_URL}/admin/activity?since=0&unique=1`);
  await expect(main.getByText("Figures for all time, ranked by unique visitors.")).toBeVisible();
  const allBlog = main.getByRole("table", { name: "Blog views, all time" });
  await expect(allBlog.getByRole("columnheader", { name: "Unique" })).toHaveAttribute("aria-sort", "descending");
  await expect(rowOf(allBlog, slug).getByRole("cell").first()).toHaveText("2");

  // The active-now window keeps the period.
  const windowForm = main.getByRole("form", { name: "Active-now window" });
  await windowForm.getByLabel("Window (minutes)").fill("1440");
  await submit(windowForm.getByRole("button", { name: "Update" }), jsEnabled);
  await expect(page).toHaveURL(`${BASE_URL}/admin/activity?since=0&unique=1&window=1440`);
  await expect(main.getByRole("region", { name: "Active now" })).toContainText("in the last 1440 minutes");
  await expect(main.getByRole("form", { name: "Reporting period" }).getByLabel("Since (days)")).toHaveValue("0");

  // The log: newest first, filtered by type, and this test's sign-in is in it.
  const filter = main.getByRole("form", { name: "Activity log filter" });
  await filter.getByLabel("Type").selectOption("admin.sign_in");
  await submit(filter.getByRole("button", { name: "Show" }), jsEnabled);
  await expect(page).toHaveURL(`${BASE_URL}/admin/activity?since=0&unique=1&window=1440&type=admin.sign_in`);
  const log = main.getByRole("table", { name: /^Activity of type admin\.sign_in, newest first/ });
  const logRows = log.locator("tbody tr");
  await expect(logRows.filter({ hasText: clientIp })).toHaveCount(1);
  for (const type of await log.locator("tbody td:nth-child(2)").allTextContents()) expect(type).toBe("admin.sign_in");

  // A window outside 1 to 1440 in the address falls back to 5 and says why.
  await page.goto("/admin/activity?window=0");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Window must be a whole number of minutes from 1 to 1440.");
  await expect(page.getByRole("main").getByRole("region", { name: "Active now" })).toContainText("in the last 5 minutes");

  expect(problems.pageErrors, "uncaught errors").toEqual([]);
  expect(problems.console, "console errors").toEqual([]);
  expect(await problems.csp(), "CSP violations").toEqual([]);
});

test("staff: engagement shows reactions, polls and subscribers; creates and ensures polls with the spec's words", async ({
  page,
  request,
  jsEnabled,
  clientIp,
  uniqueEmail,
  problems,
}, info) => {
  const t = tag(info);
  const email = uniqueEmail("dash");
  const sub = await request.post("/api/subscribers.php", { data: { email, source: "e2e:dashboards" } });
  expect(sub.status(), await sub.text()).toBe(200);
  const reacted = await request.post("/api/reactions.php", {
    data: { slug: "friday-night-on-the-walk", reaction: "clap" },
    headers: { "x-client-id": cid() },
  });
  expect(reacted.status(), await reacted.text()).toBe(200);

  const main = await signInTo(page, "/admin/engagement", jsEnabled);
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("Engagement");

  const reactions = main.getByRole("table", { name: "Reactions per post" });
  await expect(reactions.getByRole("columnheader")).toHaveText(["Post", "Like", "Love", "Insightful", "Praying", "Applause", "Total"]);
  await expect(rowOf(reactions, "friday-night-on-the-walk").getByRole("cell").nth(4)).toHaveText(/^[1-9]\d*$/);

  const subscribers = main.getByRole("table", { name: /^Subscribers, newest first/ });
  await expect(rowOf(subscribers, email).getByRole("cell")).toHaveText(["active", "e2e:dashboards", /\d\d:\d\d$/]);

  // Create a poll: the form opens on the spec's defaults.
  const form = main.getByRole("form", { name: "Create or ensure a poll" });
  await expect(form.getByLabel("Question")).toHaveValue("What do you think?");
  await expect(form.getByLabel("Options")).toHaveValue("Yes,No");
  const status = form.getByRole("status");
  const create = form.getByRole("button", { name: "Create or ensure" });

  // An id of only spaces passes the browser's check and is refused by the server.
  await form.getByLabel("Poll id").fill("   ");
  await submit(create, jsEnabled);
  await expect(status).toHaveText("Poll id required");

  const id = `e2e-poll-${t}`;
  await form.getByLabel("Poll id").fill(id);
  await form.getByLabel("Question").fill("Which night suits you?");
  await form.getByLabel("Options").fill("Friday, Saturday");
  await submit(create, jsEnabled);
  await expect(status).toHaveText("Poll created or ensured.");
  const polls = main.getByRole("list", { name: "Polls, newest first" });
  const poll = polls.getByRole("listitem").filter({ has: page.getByRole("heading", { name: id, exact: true }) });
  await expect(poll).toContainText("Which night suits you?");
  await expect(poll.getByRole("list", { name: `Options of ${id}` }).getByRole("listitem")).toHaveText([/^Friday\s*0$/, /^Saturday\s*0$/]);

  // Ensuring it again with a new option keeps the old ones.
  await form.getByLabel("Poll id").fill(id);
  await form.getByLabel("Options").fill("Sunday");
  await submit(create, jsEnabled);
  await expect(status).toHaveText("Poll created or ensured.");
  await expect(poll.getByRole("list", { name: `Options of ${id}` }).getByRole("listitem")).toHaveText([/^Friday/, /^Saturday/, /^Sunday/]);

  // The five-step template: four items rated 1 to 5.
  const feedback = `e2e-feedback-${t}`;
  await form.getByLabel("Poll id").fill(feedback);
  await form.getByLabel(/^Use the five-step template/).check();
  await submit(create, jsEnabled);
  await expect(status).toHaveText("Poll created or ensured.");
  const ratings = main.getByRole("table", { name: `Ratings for ${feedback}` });
  await expect(ratings.getByRole("rowheader")).toHaveText(["Inspired me", "Learned something", "Will share it", "Prayed"]);
  await expect(ratings.getByRole("columnheader")).toHaveText(["Item", "1", "2", "3", "4", "5", "Votes", "Average"]);

  // Each creation is in the activity log, with the staff member's address.
  await page.goto("/admin/activity?type=polls.ensure");
  const log = page.getByRole("main").getByRole("table", { name: /^Activity of type polls\.ensure/ });
  await expect(log.locator("tbody tr").filter({ hasText: `Poll ${id} created or ensured` }).filter({ hasText: clientIp })).toHaveCount(2);
  await expect(log.locator("tbody tr").filter({ hasText: `Poll ${feedback} created or ensured` })).toHaveCount(1);

  expect(problems.pageErrors, "uncaught errors").toEqual([]);
  // The refused blank id is a 400 on purpose; the browser logs it.
  const expected400 = /status of 400 \(Bad Request\) \(http:\/\/[^)]*\/admin\/engagement(\.data)?\)/;
  expect(problems.console.filter((m) => !expected400.test(m)), "console errors").toEqual([]);
  expect(await problems.csp(), "CSP violations").toEqual([]);
});

test("signed out, both screens show the sign-in form and nothing else", async ({ page }) => {
  for (const screen of ["/admin/activity", "/admin/engagement"]) {
    await page.goto(screen);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Staff sign-in" })).toBeVisible();
    await expect(main.locator('input[name="returnTo"]')).toHaveValue(screen);
    await expect(main.getByRole("table")).toHaveCount(0);
  }
});
