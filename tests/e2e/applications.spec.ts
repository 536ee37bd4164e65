import { expect, holdPosts, hydrated, markWindow, test } from "../support/e2e-fixtures";
import { enhancedAt } from "../support/hydration";
import { BASE_URL, ORG_INBOX } from "../support/e2e-env";
import { applicationsByEmail } from "../support/e2e-db";
import { waitForMail } from "../support/e2e-mail";

const HERO_SUCCESS = "Thanks! We will be in touch.";
const JOIN_FAILURE = /^Could not send automatically \((.+)\)\. You can email us directly\./;

test("home hero: an email becomes a General Interest application and a notice mail", async ({
  page,
  jsEnabled,
  uniqueEmail,
}) => {
  const email = uniqueEmail("hero");
  await page.goto("/");
  // The hero's form is the first email form on the page.
  const form = page.getByRole("main").locator("form", { has: page.locator('input[type="email"]') }).first();
  const field = form.getByRole("textbox");
  // By type, not by name: the label changes while sending.
  const button = form.locator('button[type="submit"]');
  await expect(button).toHaveText("Get involved");

  // The home page is sent without scripts (tests/bench/no-script-pages.mjs): the plain post.
  if (enhancedAt(jsEnabled, "/")) {
    await hydrated(button);
    // Never greyed out: an empty field is the browser's check to word, and nothing is sent.
    await expect(button).toBeEnabled();
    await button.click();
    expect(await field.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    await expect(form.getByText(HERO_SUCCESS)).toHaveCount(0);
    await field.fill(email);
    const stillSamePage = await markWindow(page);
    const release = await holdPosts(page, "/");
    await button.click();
    await expect(button).toHaveText("Sending…");
    await expect(button).toBeDisabled();
    release();
    await expect(form.getByText(HERO_SUCCESS)).toBeVisible();
    await expect(field).toHaveValue("");
    await stillSamePage();
  } else {
    await field.fill(email);
    await button.click();
    // The home page again (posted to its index action), with the message.
    await expect(page).toHaveURL(new RegExp(`^${BASE_URL}/(\\?index)?(#get-involved)?$`));
    await expect(page.getByRole("main").getByText(HERO_SUCCESS)).toBeInViewport();
  }

  const rows = applicationsByEmail(email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ role: "General Interest", source: "home:hero", name: "" });

  const notice = await waitForMail((m) => m.replyTo.includes(email));
  expect(notice.to).toEqual([ORG_INBOX]);
  expect(notice.subject).toContain("General Interest");
  expect(notice.text).toContain(email);
});

test("join: apply with a chosen role, land on /join/thanks, notice mail arrives", async ({
  page,
  jsEnabled,
  uniqueEmail,
}) => {
  const email = uniqueEmail("join");
  const name = `Wanjiru Test ${jsEnabled ? "On" : "Off"}`;
  await page.goto("/join");
  const form = page.locator("form.join-form");
  const role = form.getByLabel("Preferred role");
  await expect(role, "Front-End Dev is the default role").toHaveValue("Front-End Dev");
  await expect(role.locator("option")).toHaveCount(9);

  const submit = form.locator('button[type="submit"]');
  await expect(submit).toHaveText("Send application");
  if (jsEnabled) await hydrated(submit);
  await form.getByLabel("Full name").fill(name);
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Phone (optional)").fill("+254 700 111 222");
  await role.selectOption("Media / Video");
  await form.getByLabel("Message (optional)").fill("I edit short films on weekends.");
  await form.getByRole("checkbox", { name: /I agree that this application/ }).check();
  if (jsEnabled) {
    const release = await holdPosts(page, "/join");
    await submit.click();
    await expect(submit).toHaveText("Sending…");
    await expect(submit).toBeDisabled();
    release();
  } else {
    await submit.click();
  }

  await expect(page).toHaveURL(`${BASE_URL}/join/thanks`);
  const main = page.getByRole("main");
  await expect(main.locator("h1")).toBeVisible();
  await expect(main.locator('a[href="/"]'), "a button back to the home page").toBeVisible();
  await expect(main.locator('a[href^="/badges"]'), "a button to the badges").toBeVisible();

  const rows = applicationsByEmail(email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    name,
    role: "Media / Video",
    phone: "+254 700 111 222",
    message: "I edit short films on weekends.",
    source: "join",
  });

  const notice = await waitForMail((m) => m.replyTo.includes(email));
  expect(notice.to).toEqual([ORG_INBOX]);
  expect(notice.subject).toContain("Media / Video");
  expect(notice.subject).toContain(name);
  expect(notice.text).toContain("I edit short films on weekends.");
});

test("join: invalid name and email are refused with the spec's messages, typed values kept", async ({
  page,
  jsEnabled,
  uniqueEmail,
}) => {
  await page.goto("/join");
  const form = page.locator("form.join-form");
  const nameField = form.getByLabel("Full name");
  const emailField = form.getByLabel("Email", { exact: true });
  const submit = form.getByRole("button", { name: "Send application" });
  let typedName: string;
  let typedEmail: string;
  if (jsEnabled) {
    await hydrated(submit);
    // Take the browser's own checks away so the server's answer is what the visitor sees.
    // (novalidate rather than editing the inputs: React puts an input's type back on input.)
    await form.evaluate((f) => f.setAttribute("novalidate", ""));
    typedName = "";
    typedEmail = `not-an-email-${uniqueEmail("x").split("@")[0]}`;
  } else {
    // Without JavaScript nothing can lift the browser's checks, so send what passes them but
    // not the spec's rules: a blank (spaces only) name and an address without a dot.
    typedName = "   ";
    typedEmail = `${uniqueEmail("x").split("@")[0]}@localhost`;
  }
  await nameField.fill(typedName);
  await emailField.fill(typedEmail);
  await form.getByLabel("Preferred role").selectOption("DevOps");
  await form.getByLabel("Message (optional)").fill("Keep this message.");
  await form.getByRole("checkbox", { name: /I agree that this application/ }).check();
  await submit.click();

  await expect(form.getByText("Please enter your full name.", { exact: true })).toBeVisible();
  await expect(form.getByText("Please provide a valid email address.", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(`${BASE_URL}/join`);
  // The form that came back is on the first screen, with what to fix at its top.
  await expect(form.getByRole("alert").getByText("Please check the fields marked below.")).toBeInViewport();
  await expect(form.getByRole("link", { name: "Full name: Please enter your full name." })).toBeVisible();
  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  await expect(emailField).toHaveAttribute("aria-invalid", "true");
  await expect(nameField).toHaveValue(typedName);
  await expect(emailField).toHaveValue(typedEmail);
  await expect(form.getByLabel("Preferred role")).toHaveValue("DevOps");
  await expect(form.getByLabel("Message (optional)")).toHaveValue("Keep this message.");
  expect(applicationsByEmail(typedEmail)).toHaveLength(0);

  if (jsEnabled) {
    // A field fixed after the refusal drops its old message; the others keep theirs.
    await nameField.fill("Wanjiku Kamau");
    await expect(form.getByText("Please enter your full name.", { exact: true })).toHaveCount(0);
    await expect(nameField).not.toHaveAttribute("aria-invalid", "true");
    await expect(form.getByText("Please provide a valid email address.", { exact: true })).toBeVisible();
  }
});

test("join: the 6th application from one address in 10 minutes is refused, with a mailto fallback", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}) => {
  const email = uniqueEmail("limit");
  // Five accepted applications from this test's address (the request fixture sends the same
  // X-Forwarded-For as the page); each is a redirect to /join/thanks.
  for (let i = 1; i <= 5; i++) {
    const res = await request.post("/join", {
      form: { name: `Limit Tester ${i}`, email, role: "DevOps", message: `Attempt ${i}`, consent: "yes" },
      maxRedirects: 0,
    });
    expect(res.status(), `application ${i} is accepted`).toBe(302);
    expect(res.headers()["location"]).toBe("/join/thanks");
  }
  expect(applicationsByEmail(email)).toHaveLength(5);

  await page.goto("/join");
  const form = page.locator("form.join-form");
  const submit = form.getByRole("button", { name: "Send application" });
  if (jsEnabled) await hydrated(submit);
  await form.getByLabel("Full name").fill("Limit Tester 6");
  await form.getByLabel("Email", { exact: true }).fill(email);
  await form.getByLabel("Preferred role").selectOption("Writer / Content");
  await form.getByLabel("Message (optional)").fill("Attempt 6");
  await form.getByRole("checkbox", { name: /I agree that this application/ }).check();
  await submit.click();

  const status = form.getByRole("status");
  await expect(status).toHaveText(JOIN_FAILURE);
  await expect(status).toContainText("too many attempts, try again in 10 minutes");
  const mailto = status.getByRole("link", { name: "Email your application" });
  await expect(mailto).toHaveAttribute("href", /^mailto:hello@streetlight-outreach\.org\?subject=/);
  const href = (await mailto.getAttribute("href"))!;
  const draft = new URL(href);
  expect(draft.searchParams.get("subject")).toBe("Volunteer application: Writer / Content");
  expect(draft.searchParams.get("body")).toContain("Name: Limit Tester 6");
  expect(draft.searchParams.get("body")).toContain("Attempt 6");
  await expect(page).toHaveURL(`${BASE_URL}/join`);
  await expect(form.getByLabel("Full name")).toHaveValue("Limit Tester 6");
  expect(applicationsByEmail(email), "nothing more was stored").toHaveLength(5);
});
