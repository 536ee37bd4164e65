// `npm run bench:first-use`: what a page costs the phone when its reader first uses it. A cached
// page loads no script until a touch, a key or the mouse (app/lib/first-paint.server.ts); this
// measures what comes then, with Chromium's CPU slowed 4x as Lighthouse's mobile run simulates:
// the main-thread time from the first mouse movement until the page has hydrated and gone quiet,
// its longest task, and how long the reader waited for the page to be enhanced. The network is
// this machine's loopback (no download time: add the JS at first use over the phone's line).
//
//   node tests/bench/first-use.mjs [--pages /a,/b] [--runs 3] [--in-place]
//
// Pages sent without scripts are skipped. Each page is opened in a fresh browser context (a
// first visit, no cookie), left untouched for a second, then the mouse moves once. Printed per
// page: the median run's figures. Not budgeted: a figure to read beside `npm run lighthouse`.
import { chromium } from "playwright";
import { NO_SCRIPT_PAGES } from "./no-script-pages.mjs";
import { PAGES } from "./pages.mjs";
import { addCleanup, startSite, stopAll } from "./server.mjs";
import { commandArgs, parsePageList, positiveInt, printTable } from "./util.mjs";

const CPU_SLOWDOWN = 4;
const CHROME_PATH = process.env.CHROME_PATH || process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const USAGE = "usage: node tests/bench/first-use.mjs [--pages /a,/b] [--runs 3] [--in-place]";

const { args, pages, runs } = commandArgs(
  USAGE,
  {
    pages: { type: "string" },
    runs: { type: "string", default: "3" },
    "in-place": { type: "boolean", default: false },
  },
  (args) => ({
    pages: (args.pages ? parsePageList(args.pages) : PAGES).filter((p) => !NO_SCRIPT_PAGES.includes(p)),
    runs: positiveInt("--runs", args.runs),
  }),
);

/** Main-thread task time so far (s), from the DevTools protocol's performance metrics. */
async function taskSeconds(cdp) {
  const { metrics } = await cdp.send("Performance.getMetrics");
  return metrics.find((m) => m.name === "TaskDuration")?.value ?? 0;
}

/** One first visit: untouched for a second, then one mouse movement; the cost of what follows. */
async function measure(browser, url) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    await page.addInitScript(() => {
      const w = /** @type {any} */ (window);
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: "longtask", buffered: true });
    });
    await page.goto(url, { waitUntil: "load" });
    await page.waitForTimeout(1_000);
    const scriptsBefore = await page.evaluate(() => performance.getEntriesByType("resource").filter((r) => r.initiatorType === "script" || /\.js$/.test(r.name)).length);
    const before = await taskSeconds(cdp);
    const movedAt = await page.evaluate(() => performance.now());
    await page.mouse.move(40, 200);
    // Hydrated: React has attached its props to the page's first form control (or link).
    await page.waitForFunction(
      () => {
        const el = document.querySelector("main button, main input, main a, footer button");
        return !!el && Object.keys(el).some((k) => k.startsWith("__reactProps$"));
      },
      undefined,
      { timeout: 30_000, polling: 50 },
    );
    const hydratedAt = await page.evaluate(() => performance.now());
    await page.waitForTimeout(1_500); // effects, fetches and their answers
    const after = await taskSeconds(cdp);
    const longTasks = await page.evaluate((t) => /** @type {any} */ (window).__longTasks.filter((e) => e.start >= t), movedAt);
    return {
      scriptsBefore,
      mainThreadMs: (after - before) * 1000,
      longest: longTasks.reduce((m, t) => Math.max(m, t.duration), 0),
      longTasks: longTasks.length,
      waitMs: hydratedAt - movedAt,
    };
  } finally {
    await context.close();
  }
}

const round = (v) => `${Math.round(v)} ms`;
let exitCode = 0;
try {
  const site = await startSite({ label: "first-use", inPlace: args["in-place"] });
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  addCleanup(() => browser.close());
  console.log(`[first-use] ${pages.length} page(s) that hydrate, ${runs} run(s) each, CPU slowed ${CPU_SLOWDOWN}x, loopback network`);
  const rows = [];
  for (const p of pages) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await measure(browser, site.origin + p));
    results.sort((a, b) => a.mainThreadMs - b.mainThreadMs);
    const r = results[Math.floor((results.length - 1) / 2)];
    rows.push([p, r.scriptsBefore, round(r.mainThreadMs), r.longTasks, round(r.longest), round(r.waitMs)]);
  }
  console.log(`\n## At the reader's first use (median of ${runs}; CPU ${CPU_SLOWDOWN}x)`);
  printTable(["page", "scripts before use", "main thread after use", "long tasks", "longest task", "use to hydrated"], rows);
} catch (e) {
  console.error(`\n[first-use] failed: ${e instanceof Error ? (e.stack ?? e.message) : e}`);
  exitCode = 1;
} finally {
  await stopAll();
}
process.exit(exitCode);
