import crypto from "node:crypto";
import { test as base, expect, type Locator, type Page, type TestInfo } from "@playwright/test";

/**
 * A client address of its own for every test (10.x.y.z from the test's id), sent as
 * X-Forwarded-For: the site runs with TRUST_PROXY=on and per-address rate limits, and every
 * test really comes from 127.0.0.1.
 */
function addressFor(info: TestInfo) {
  const h = crypto
    .createHash("sha256")
    .update(`${info.testId}:${info.retry}:${info.repeatEachIndex}`)
    .digest();
  return `10.${h[0]}.${h[1]}.${h[2]}`;
}

export type PageProblems = { console: string[]; pageErrors: string[]; csp: () => Promise<string[]> };

type Fixtures = {
  clientIp: string;
  jsEnabled: boolean;
  /** A fresh address for this test and project: `tag-project-xxxxxx@example.com`. */
  uniqueEmail: (tag: string) => string;
  /** Console errors, uncaught page errors and CSP violations seen by `page`. */
  problems: PageProblems;
  /**
   * JS-on: the reader moves the mouse as each page of the test's context loads, so a cached page
   * starts its scripts at once, as it does for a reader who touches it (app/lib/http/first-paint.server.ts
   * waits for that first use). `test.use({ readerMovesAtLoad: false })` keeps a page untouched.
   */
  readerMovesAtLoad: boolean;
  readerUse: void;
};

export const test = base.extend<Fixtures>({
  clientIp: async ({}, use, info) => use(addressFor(info)),
  extraHTTPHeaders: async ({ clientIp }, use) => use({ "X-Forwarded-For": clientIp }),
  jsEnabled: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  uniqueEmail: async ({}, use, info) => {
    const project = info.project.name.replace(/[^a-z0-9]/gi, "").toLowerCase();
    await use((tag) => `${tag}-${project}-${Date.now().toString(36)}${crypto.randomBytes(3).toString("hex")}@example.com`);
  },
  readerMovesAtLoad: [true, { option: true }],
  readerUse: [
    async ({ context, jsEnabled, readerMovesAtLoad }, use) => {
      if (jsEnabled && readerMovesAtLoad) {
        await context.addInitScript(() => {
          window.addEventListener("load", () => setTimeout(() => window.dispatchEvent(new Event("pointermove")), 0));
        });
      }
      await use();
    },
    { auto: true },
  ],
  problems: async ({ page, jsEnabled }, use) => {
    const consoleErrors: string[] = [];
    const pageErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(`${m.text()} (${m.location().url})`);
    });
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    if (jsEnabled) {
      await page.addInitScript(() => {
        const w = window as unknown as { __cspViolations: string[] };
        w.__cspViolations = [];
        document.addEventListener("securitypolicyviolation", (e) => {
          w.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
        });
      });
    }
    await use({
      console: consoleErrors,
      pageErrors,
      csp: async () =>
        jsEnabled ? page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []) : [],
    });
  },
});

export { expect };

/**
 * Resolves once React has hydrated `el` (it carries React's props key then). JS-on only. A
 * cached page starts its scripts at the reader's first use (app/lib/http/first-paint.server.ts), so
 * this moves the mouse as a reader would before each look.
 */
export async function hydrated(el: Locator) {
  const page = el.page();
  let x = 1;
  await expect
    .poll(
      async () => {
        x = 3 - x;
        await page.mouse.move(x, 1);
        return el.evaluate((node) => Object.keys(node).some((k) => k.startsWith("__reactProps$")));
      },
      { message: "the page should hydrate" },
    )
    .toBe(true);
}

/** Sets a marker on `window`; it survives only when the page is not reloaded. */
export async function markWindow(page: Page) {
  const mark = crypto.randomBytes(6).toString("hex");
  await page.evaluate((m) => ((window as unknown as { __e2eMark: string }).__e2eMark = m), mark);
  return async () => {
    expect(await page.evaluate(() => (window as unknown as { __e2eMark?: string }).__e2eMark)).toBe(mark);
  };
}

/**
 * Holds the page's POST requests to `pathPrefix` until `release()` is called, so a test can
 * look at the pending state without racing the server. JS-on only (the fetches of the app).
 */
export async function holdPosts(page: Page, pathPrefix: string) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(
    (url) => url.pathname.startsWith(pathPrefix),
    async (route) => {
      if (route.request().method() === "POST") await released;
      await route.continue();
    },
  );
  return release;
}
