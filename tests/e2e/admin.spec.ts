import { expect, hydrated, test } from "../support/e2e-fixtures";
import { ADMIN_KEY, BASE_URL } from "../support/e2e-env";
import { activityFrom } from "../support/e2e-db";

test("admin: sign-in form, wrong key refused, right key signs in, activity listed, sign out", async ({
  page,
  jsEnabled,
  clientIp,
}) => {
  await page.goto("/admin");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "Staff sign-in" })).toBeVisible();
  const keyField = main.getByLabel("Admin key");
  const signIn = main.getByRole("button", { name: "Sign in" });
  await expect(keyField).toHaveAttribute("type", "password");
  if (jsEnabled) await hydrated(signIn);

  await keyField.fill("definitely-not-the-key");
  await signIn.click();
  await expect(main.getByRole("status")).toHaveText("That admin key is not right.");
  await expect(page.getByRole("button", { name: "Sign out", exact: true })).toHaveCount(0);

  await main.getByLabel("Admin key").fill(ADMIN_KEY);
  await main.getByRole("button", { name: "Sign in" }).click();
  const signOut = page.getByRole("banner").getByRole("button", { name: "Sign out", exact: true });
  await expect(signOut).toBeVisible();
  await expect(page).toHaveURL(`${BASE_URL}/admin`);
  await expect(main.getByRole("heading", { name: "Staff", exact: true })).toBeVisible();
  await expect(main.getByRole("heading", { name: "Staff sign-in" })).toHaveCount(0);

  // The activity table lists this sign-in (and the failed one), from this test's address.
  const table = main.getByRole("table");
  const ours = table.getByRole("row").filter({ hasText: clientIp });
  await expect(ours.filter({ hasText: /admin\.sign_in(?!_)/ })).toHaveCount(1);
  await expect(ours.filter({ hasText: "admin.sign_in_failed" })).toHaveCount(1);

  if (jsEnabled) await hydrated(signOut);
  await signOut.click();
  await expect(main.getByRole("heading", { name: "Staff sign-in" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out", exact: true })).toHaveCount(0);
  // Signed out for good: a fresh load shows the form again.
  await page.reload();
  await expect(page.getByRole("main").getByRole("heading", { name: "Staff sign-in" })).toBeVisible();

  expect(activityFrom(clientIp).map((a) => a.type)).toEqual([
    "admin.sign_in_failed",
    "admin.sign_in",
    "admin.sign_out",
  ]);
});
