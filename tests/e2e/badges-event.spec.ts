import { expect, holdPosts, hydrated, test } from "../support/e2e-fixtures";
import { BASE_URL } from "../support/e2e-env";
import { waitForMail } from "../support/e2e-mail";
import {
  badgeOrdersByEmail,
  fillOrder,
  imageInfo,
  openTierDialog,
  ORDER_SUCCESS,
  orderFile,
  placeOrderByApi,
  portraitImage,
  successReference,
  uniqueCode,
} from "../support/e2e-badges";

const NAME_MESSAGE = "Please enter your full name.";
const EMAIL_MESSAGE = "Please provide a valid email address.";
const CODE_MESSAGE = "Payment confirmation code is required.";

test("event: confirm a Big Friend badge without a portrait; order stored from the server's tier table, mail sent", async ({
  page,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const email = uniqueEmail("badge");
  const code = uniqueCode(info);
  const name = `Amani Supporter ${jsEnabled ? "On" : "Off"}`;

  const dialog = await openTierDialog(page, "Big Friend", jsEnabled);
  await expect(page).toHaveURL(`${BASE_URL}/event?tier=t3#confirm`);
  // The payment summary: tier, amount, paybill and account, the bank account the SMS names.
  const summary = dialog.getByRole("region", { name: "1. Pay by M-Pesa" });
  await expect(summary.locator(".pay-amount")).toHaveText("KES 1,300");
  await expect(summary).toContainText("Paybill number880100");
  await expect(summary).toContainText("Account referenceVESPERS");
  await expect(summary).toContainText("Street Light Outreach");

  await fillOrder(dialog, { name, email, code, phone: "+254 711 000 111", notes: "See you there.", hardCopy: true });
  const submit = dialog.locator('button[type="submit"]');
  await expect(submit).toHaveText("Submit confirmation");
  if (jsEnabled) {
    const release = await holdPosts(page, "/event");
    await submit.click();
    await expect(submit).toHaveText("Submitting…");
    await expect(submit).toBeDisabled();
    release();
  } else {
    await submit.click();
  }
  const reference = await successReference(dialog);
  // The page's own banner carries the good news and the reference too.
  const banner = page.locator("#tiers").getByRole("status");
  await expect(banner).toHaveText(`${ORDER_SUCCESS} Your reference: ${reference}.`);

  const rows = badgeOrdersByEmail(email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    id: reference,
    tier_key: "t3",
    tier_name: "Big Friend",
    amount: 1300,
    name,
    email,
    phone: "+254 711 000 111",
    notes: "See you there.",
    payment_reference: code,
    hard_copy: 1,
    status: "pending",
    portrait_file: null,
    badge_file: null,
    poster_file: null,
  });

  const mail = await waitForMail((m) => m.to.includes(email));
  expect(mail.subject).toBe(`We received your Big Friend confirmation (${reference})`);
  expect(mail.text).toContain(`Your reference is ${reference}.`);
  expect(mail.text).toContain(`M-Pesa code: ${code}`);
  expect(mail.text).toContain("KES 1,300");
  expect(mail.text).toContain("Hard-copy badge requested");
  expect(mail.attachments).toEqual([]);

  // Closing leaves the event page, the dialog gone; with JavaScript the banner stays.
  const close = dialog.getByRole("link", { name: "Close", exact: true }).last();
  await close.click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`^${BASE_URL}/event(#.*)?$`));
  if (jsEnabled) await expect(banner).toContainText(reference);
});

test("event: confirm a tier with a portrait; the stored portrait is a 720x720 PNG", async ({
  page,
  jsEnabled,
  uniqueEmail,
  problems,
}, info) => {
  const email = uniqueEmail("portrait");
  const dialog = await openTierDialog(page, "Partner", jsEnabled);
  await fillOrder(dialog, { name: "Njeri Portrait", email, code: uniqueCode(info) });
  const fileInput = dialog.getByLabel("Portrait (optional)");

  if (jsEnabled) {
    await fileInput.setInputFiles(await portraitImage("png", 800, 600));
    const crop = dialog.getByRole("img", { name: /^Portrait crop\./ });
    await expect(crop).toBeVisible();
    const zoom = dialog.getByRole("slider", { name: "Zoom" });
    await expect(zoom).toBeEnabled(); // the picture has loaded
    await expect(zoom).toHaveValue("1.2");
    await expect(zoom).toHaveAttribute("min", "1");
    await expect(zoom).toHaveAttribute("max", "3");
    await expect(zoom).toHaveAttribute("step", "0.05");
    // Zoom in a step, then choose another file: the crop starts again at 1.2.
    await zoom.focus();
    await page.keyboard.press("ArrowRight");
    await expect(zoom).toHaveValue("1.25");
    await fileInput.setInputFiles(await portraitImage("jpeg", 600, 900));
    await expect(zoom).toBeEnabled();
    await expect(zoom).toHaveValue("1.2");

    await dialog.getByRole("button", { name: "Use this portrait" }).click();
    await expect(dialog.getByText("Portrait ready")).toBeVisible();
    await expect(dialog.getByRole("img", { name: "Your portrait, cropped for the badge" })).toBeVisible();
    await expect(crop).toBeHidden();
  } else {
    // No script, no crop tool: the original goes as it is and the server crops it.
    await expect(dialog.getByText("We will crop it to a circle for you.")).toBeVisible();
    await fileInput.setInputFiles(await portraitImage("jpeg", 900, 600));
  }
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  const reference = await successReference(dialog);

  const [row] = badgeOrdersByEmail(email);
  expect(row).toMatchObject({ id: reference, tier_key: "t4", tier_name: "Partner", amount: 2100, portrait_file: "portrait.jpg" });
  expect(await imageInfo(orderFile(reference, "portrait.jpg"))).toEqual({ format: "jpeg", width: 720, height: 720 });
  if (jsEnabled) {
    // The crop tool draws from blob: URLs; nothing it does may be refused by the page's CSP.
    expect(problems.pageErrors, "uncaught errors").toEqual([]);
    expect(problems.console, "console errors").toEqual([]);
    expect(await problems.csp(), "CSP violations").toEqual([]);
  }
});

test("event: empty name, bad email and empty code get the spec's messages; typed values kept", async ({
  page,
  jsEnabled,
}) => {
  const dialog = await openTierDialog(page, "Helping Hand", jsEnabled);
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname.startsWith("/event")) posts.push(r.url());
  });
  const nameField = dialog.getByLabel("Full name");
  const emailField = dialog.getByLabel("Email", { exact: true });
  const codeField = dialog.getByLabel("Payment confirmation code");
  // Hydrated, the form's own checks run (novalidate), so truly empty fields can be sent.
  // Without JavaScript the browser's checks stand: send what passes them but not the spec's
  // rules, a blank name and code (spaces only) and an address without a dot.
  const typed = jsEnabled
    ? { name: "", email: "not-an-email", code: "" }
    : { name: "   ", email: "someone@localhost", code: "   " };
  await fillOrder(dialog, { ...typed, phone: "0711 222 333", notes: "Keep these notes.", hardCopy: true });
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();

  // (exact: without JavaScript the summary at the top links to each field with its message too)
  await expect(dialog.getByText(NAME_MESSAGE, { exact: true })).toBeVisible();
  await expect(dialog.getByText(EMAIL_MESSAGE, { exact: true })).toBeVisible();
  // Soft, so the rest still runs: without JavaScript a blank (spaces-only) code gets zod's
  // "Invalid input: expected string, received undefined" (conform turns the normalised "" into
  // undefined inside the schema's pipe; see the report).
  await expect(dialog.getByText(CODE_MESSAGE, { exact: true })).toBeVisible();
  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  await expect(emailField).toHaveAttribute("aria-invalid", "true");
  await expect(codeField).toHaveAttribute("aria-invalid", "true");
  await expect(nameField).toHaveAccessibleDescription(NAME_MESSAGE);
  await expect(nameField).toHaveValue(typed.name);
  await expect(emailField).toHaveValue(typed.email);
  await expect(codeField).toHaveValue(typed.code);
  await expect(dialog.getByLabel("Phone (optional)")).toHaveValue("0711 222 333");
  await expect(dialog.getByLabel("Notes (optional)")).toHaveValue("Keep these notes.");
  await expect(dialog.getByLabel("I would like a printed hard-copy badge too")).toBeChecked();
  await expect(dialog.getByText(ORDER_SUCCESS)).toHaveCount(0);
  if (jsEnabled) {
    // Checked in the browser: nothing was sent, and the cursor is in the first field to fix.
    expect(posts, "no request before the fields are right").toEqual([]);
    await expect(nameField).toBeFocused();
  } else {
    expect(posts).toHaveLength(1);
  }
  await expect(page).toHaveURL(/\/event\?tier=t2#confirm$/);
});

test("event: a payment code already used for an order is refused, the form kept", async ({
  page,
  request,
  jsEnabled,
  uniqueEmail,
}, info) => {
  const code = uniqueCode(info);
  await placeOrderByApi(request, { tierKey: "t1", name: "First Payer", email: uniqueEmail("first"), paymentReference: code });

  const email = uniqueEmail("second");
  const dialog = await openTierDialog(page, "Friends Badge", jsEnabled);
  // Lower case, as typed on a phone: the same code.
  await fillOrder(dialog, { name: "Second Payer", email, code: code.toLowerCase() });
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  const alert = dialog.getByRole("alert");
  await expect(alert).toContainText("already been used");
  await expect(alert).toHaveText(
    "This payment confirmation code has already been used for an order. Check the code, or email us if you think this is a mistake.",
  );
  await expect(dialog.getByText(ORDER_SUCCESS)).toHaveCount(0);
  await expect(dialog.getByLabel("Full name")).toHaveValue("Second Payer");
  await expect(dialog.getByLabel("Email", { exact: true })).toHaveValue(email);
  expect(badgeOrdersByEmail(email)).toHaveLength(0);
});

test("event: a pasted M-Pesa SMS is accepted and stored as the bare code", async ({ page, jsEnabled, uniqueEmail }, info) => {
  const code = uniqueCode(info);
  const sms = `${code} Confirmed. Ksh1,300.00 sent to STREET LIGHT OUTREACH for account VESPERS on 12/11/25 at 7:14 PM. New M-PESA balance is Ksh2,450.00.`;
  const email = uniqueEmail("sms");
  const dialog = await openTierDialog(page, "Big Friend", jsEnabled);
  await fillOrder(dialog, { name: "Paste Person", email, code: sms });
  await dialog.getByRole("button", { name: "Submit confirmation" }).click();
  const reference = await successReference(dialog);
  const rows = badgeOrdersByEmail(email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ id: reference, payment_reference: code, hard_copy: 0, tier_name: "Big Friend" });
});

test("event: Cancel closes the confirmation form and returns to /event", async ({ page, jsEnabled }) => {
  const dialog = await openTierDialog(page, "Champion", jsEnabled);
  await expect(dialog.locator(".pay-amount")).toHaveText("KES 3,400");
  if (jsEnabled) await hydrated(dialog.getByRole("link", { name: "Cancel" }));
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(`${BASE_URL}/event`);
});

test("event: with JavaScript, a tier's dialog opens and closes in the page, without fetching the page's data again", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "without JavaScript the tier link is a page of its own");
  // Whether the dialog was already a modal when it first came into the page (a mutation
  // observer runs after the task that put it there, before the browser paints).
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const dialog = document.querySelector("dialog#confirm");
      const w = window as unknown as { openWhenAdded?: boolean[]; seen?: Element | null };
      if (dialog && dialog !== w.seen) (w.openWhenAdded ??= []).push((dialog as HTMLDialogElement).open);
      w.seen = dialog;
    }).observe(document, { childList: true, subtree: true });
  });
  const fetched: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.endsWith(".data")) fetched.push(r.url());
  });
  const dialog = await openTierDialog(page, "Helping Hand", jsEnabled);
  await expect(dialog.locator(".pay-amount")).toHaveText("KES 500");
  await hydrated(dialog.getByRole("link", { name: "Cancel" }));
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(`${BASE_URL}/event`);
  // And open again: the same tier, after a close.
  await page.getByRole("link", { name: /^Support & confirm the Helping Hand$/ }).click();
  await expect(dialog).toBeVisible();
  expect(fetched).toEqual([]);
  // Both dialogs opened by a tap were modals from the start (never drawn once as closed).
  expect(await page.evaluate(() => (window as unknown as { openWhenAdded?: boolean[] }).openWhenAdded)).toEqual([true, true]);
});
