// `npm run bench:first-use`: what a page costs the phone when its reader first uses it. A cached
// page loads no script until a touch, a key or the mouse (app/lib/http/first-paint.server.ts); this
// measures what comes then, with Chromium's CPU slowed 4x as Lighthouse's mobile run simulates:
// the main-thread time from the first mouse movement until the page has hydrated and gone quiet,
// its longest task, and how long the reader waited for the page to be enhanced. The network is
// this machine's loopback (no download time: add the JS at first use over the phone's line).
//
//   node tests/bench/first-use.mjs [--pages /a,/b] [--runs 3] [--in-place]
//   node tests/bench/first-use.mjs --journeys [--check] [--only add-to-bag,...] [--delays 0,1,3,10] [--runs 5] [--baseline f22739e | --no-baseline]
//
// --journeys: instead, the five journeys of tests/bench/first-touch.mjs (team badge dialog, tier and
// order form, add to bag, blog reaction, /vespers subscribe) on a phone (touch, 4x CPU, slow 4G), a
// tap at each delay after load, on this build and on an older commit's (unpacked to a temporary
// folder and built there), the two taking turns; medians of tap to result. --check (implies
// --journeys) fails when this build is slower than the old by more than 10% plus 50 ms at a delay
// of 3 s or more, or when any run on this build changed a choice, lost typed text or saw no result.
//
// Pages sent without scripts are skipped. Each page is opened in a fresh browser context (a
// first visit, no cookie), left untouched for a second, then the mouse moves once. Printed per
// page: the median run's figures. Not budgeted: a figure to read beside `npm run lighthouse`.
import { chromium } from "playwright";
import { compareJourneys, JOURNEYS } from "./first-touch.mjs";
import { BASELINE, baselineTree } from "./orders.mjs";
import { NO_SCRIPT_PAGES } from "./no-script-pages.mjs";
import { PAGES } from "./pages.mjs";
import { addCleanup, startSite, stopAll } from "./server.mjs";
import { commandArgs, parsePageList, positiveInt, printTable } from "./util.mjs";

const CPU_SLOWDOWN = 4;
const CHROME_PATH = process.env.CHROME_PATH || process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const USAGE =
  "usage: node tests/bench/first-use.mjs [--pages /a,/b] [--runs 3] [--in-place]\n" +
  "       node tests/bench/first-use.mjs --journeys [--check] [--only a,b] [--delays 0,1,3,10] [--runs 5] [--baseline <commit> | --no-baseline]";

const { args, pages, runs, journeys, delays } = commandArgs(
  USAGE,
  {
    pages: { type: "string" },
    runs: { type: "string" },
    "in-place": { type: "boolean", default: false },
    journeys: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    only: { type: "string" },
    delays: { type: "string", default: "0,1,3,10" },
    baseline: { type: "string", default: BASELINE },
    "no-baseline": { type: "boolean", default: false },
  },
  (args) => {
    const journeys = args.only ? args.only.split(",").map((j) => j.trim()) : Object.keys(JOURNEYS);
    for (const j of journeys) if (!JOURNEYS[j]) throw new Error(`--only: no journey '${j}' (${Object.keys(JOURNEYS).join(", ")})`);
    const delays = args.delays.split(",").map((d) => Number(d.trim()));
    if (delays.some((d) => !Number.isFinite(d) || d < 0 || d > 60)) throw new Error("--delays: seconds after load, 0 to 60, comma-separated");
    return {
      pages: (args.pages ? parsePageList(args.pages) : PAGES).filter((p) => !NO_SCRIPT_PAGES.includes(p)),
      runs: positiveInt("--runs", args.runs ?? (args.journeys || args.check ? "5" : "3")),
      journeys,
      delays,
    };
  },
);
const journeyMode = args.journeys || args.check;

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
  if (journeyMode) {
    const sites = [{ name: "this build", origin: site.origin }];
    if (!args["no-baseline"]) {
      const tree = baselineTree(args.baseline);
      if (tree.error) throw new Error(`the old build cannot run: ${tree.error} (--no-baseline measures this build alone)`);
      if (tree.differ.length) console.log(`[first-touch] ${args.baseline} wants other dependency versions: ${tree.differ.join(", ")}`);
      const old = await startSite({ label: `first-touch-${args.baseline}`, cwd: tree.dir });
      sites.push({ name: args.baseline, origin: old.origin });
    }
    console.log(`[first-touch] ${journeys.length} journey(s) x ${delays.length} delay(s) x ${runs} run(s) on ${sites.map((s) => s.name).join(" and ")}; 360x740 touch, CPU ${CPU_SLOWDOWN}x, slow 4G`);
    const { rows, failures, headers } = await compareJourneys(browser, sites, { journeys, delays, runs });
    console.log(`\n## The first touch (median of ${runs}; phone: touch, CPU ${CPU_SLOWDOWN}x, 150 ms, 1.6 Mbps)`);
    printTable(headers, rows);
    if (args.check) {
      if (failures.length) {
        console.log(`\ncheck FAILED:\n- ${failures.join("\n- ")}`);
        exitCode = 1;
      } else console.log("\ncheck passed");
    }
  }
  if (!journeyMode) console.log(`[first-use] ${pages.length} page(s) that hydrate, ${runs} run(s) each, CPU slowed ${CPU_SLOWDOWN}x, loopback network`);
  const rows = [];
  for (const p of journeyMode ? [] : pages) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await measure(browser, site.origin + p));
    results.sort((a, b) => a.mainThreadMs - b.mainThreadMs);
    const r = results[Math.floor((results.length - 1) / 2)];
    rows.push([p, r.scriptsBefore, round(r.mainThreadMs), r.longTasks, round(r.longest), round(r.waitMs)]);
  }
  if (!journeyMode) {
    console.log(`\n## At the reader's first use (median of ${runs}; CPU ${CPU_SLOWDOWN}x)`);
    printTable(["page", "scripts before use", "main thread after use", "long tasks", "longest task", "use to hydrated"], rows);
  }
} catch (e) {
  console.error(`\n[first-use] failed: ${e instanceof Error ? (e.stack ?? e.message) : e}`);
  exitCode = 1;
} finally {
  await stopAll();
}
process.exit(exitCode);
