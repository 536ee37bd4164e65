import { defineConfig } from "@playwright/test";
import { ADMIN_KEY, BASE_URL, DATA_DIR, MAIL_HTTP_PORT, ROOT, SITE_PORT, SMTP_PORT, TMP_DIR } from "./support/e2e-env";

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
};

// The site needs no network beyond these two local servers. The data folder is wiped by
// tests/support/e2e-site.mjs as the server starts (this file is also loaded by every worker,
// so wiping here would pull the database from under a running server).
export default defineConfig({
  testDir: "./e2e",
  outputDir: `${TMP_DIR}/test-results`,
  fullyParallel: true,
  workers: 2,
  // CI (.ci/run) sets E2E_RETRIES=1: a test that fails under the whole suite's load and passes
  // alone is reported as flaky in the output, not hidden; a test that fails twice fails the run.
  retries: Number(process.env.E2E_RETRIES ?? 0) || 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never", outputFolder: `${TMP_DIR}/playwright-report` }]] : "list",
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions,
  },
  projects: [
    { name: "js-on", use: { javaScriptEnabled: true } },
    { name: "js-off", use: { javaScriptEnabled: false } },
  ],
  webServer: [
    {
      name: "mail",
      command: "node tests/support/mail-catcher.mjs",
      cwd: ROOT,
      url: `http://127.0.0.1:${MAIL_HTTP_PORT}/health`,
      env: { MAIL_CATCHER_SMTP_PORT: String(SMTP_PORT), MAIL_CATCHER_HTTP_PORT: String(MAIL_HTTP_PORT) },
      reuseExistingServer: false,
      gracefulShutdown: { signal: "SIGTERM", timeout: 2_000 },
      timeout: 15_000,
    },
    {
      name: "site",
      command: "node tests/support/e2e-site.mjs",
      cwd: ROOT,
      url: `${BASE_URL}/favicon.ico`,
      env: {
        NODE_ENV: "production",
        PORT: String(SITE_PORT),
        HOST: "127.0.0.1",
        PUBLIC_URL: BASE_URL,
        ALLOW_LOCAL_PUBLIC_URL: "on",
        DATA_DIR,
        DATABASE_PATH: "",
        DATABASE_URL: "",
        ADMIN_KEY,
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        MAIL_FROM: "",
        ORG_INBOX: "",
        TRUST_PROXY: "on",
        RATE_LIMIT: "on",
      },
      reuseExistingServer: false,
      gracefulShutdown: { signal: "SIGTERM", timeout: 6_000 },
      timeout: 180_000,
    },
  ],
});
