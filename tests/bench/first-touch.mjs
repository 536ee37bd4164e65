// The journeys of `npm run bench:first-use -- --journeys` (and `--check`): what a reader feels
// at the first touch, on a phone as people use it: 360x740 with real touch events, the CPU
// slowed 4x, slow 4G (150 ms, 1.6 Mbps down). Each journey opens its page in a fresh browser
// context (a first visit), waits a given time after the load event, then taps; printed is the
// time from the tap to the result on screen, and whether the page changed a choice the reader
// made or lost text they typed (docs/decisions/first-paint-and-scripts.md).
import crypto from "node:crypto";

export const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true };
export const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
export const CPU_SLOWDOWN = 4;
const RESULT_TIMEOUT = 30_000;
/** How long after load (or after the delay) a first visit's /vespers announcement may take to show. */
const ANNOUNCEMENT_WAIT = 10_000;

async function waitAfterLoad(page, ms) {
  const since = await page.evaluate(() => performance.now() - performance.getEntriesByType("navigation")[0].loadEventEnd);
  if (ms - since > 0) await page.waitForTimeout(ms - since);
}

/**
 * Taps `locator` and returns the milliseconds until `done()` resolves. Each journey brings its
 * target into view right after load, by script (not a use of the page).
 */
async function timedTap(locator, done) {
  await locator.scrollIntoViewIfNeeded();
  const at = Date.now();
  await locator.tap({ noWaitAfter: true });
  await done();
  return Date.now() - at;
}

/**
 * The five journeys: `run(page, delayMs)` returns { ms, changed?: string, lost?: string }.
 * `changed`: a choice the page changed; `lost`: text typed that is no longer there.
 */
export const JOURNEYS = {
  "team-badge": {
    path: "/badges",
    async run(page, delay) {
      const view = page.locator(".badge-card-actions a").filter({ hasText: /^View/ }).first();
      await view.scrollIntoViewIfNeeded();
      await waitAfterLoad(page, delay);
      const ms = await timedTap(view, () => page.getByRole("dialog").first().waitFor({ state: "visible", timeout: RESULT_TIMEOUT }));
      return { ms };
    },
  },
  "tier-order": {
    path: "/event",
    async run(page, delay) {
      const support = page.getByRole("link", { name: /^Support & confirm/ }).first();
      await support.scrollIntoViewIfNeeded();
      await waitAfterLoad(page, delay);
      const dialog = page.getByRole("dialog", { name: /^Confirm your / });
      const ms = await timedTap(support, () => dialog.waitFor({ state: "visible", timeout: RESULT_TIMEOUT }));
      // Then the name, typed at once, as a reader does.
      const name = dialog.getByLabel("Full name");
      await name.tap();
      await page.keyboard.type("Amina Wanjiku", { delay: 120 });
      await page.waitForTimeout(2_000);
      const value = await name.inputValue();
      return { ms, lost: value === "Amina Wanjiku" ? undefined : `typed 'Amina Wanjiku', the field has '${value}'` };
    },
  },
  "add-to-bag": {
    path: "/merchandise?item=street-light-hoodie",
    async run(page, delay) {
      const dialog = page.locator("dialog#item");
      await waitAfterLoad(page, delay);
      await dialog.locator("label.size-option").filter({ hasText: /^L$/ }).tap(); // the first touch
      const add = dialog.getByRole("button", { name: "Add to bag" });
      const bag = page.getByRole("dialog", { name: "Your bag" });
      const ms = await timedTap(add, () => bag.waitFor({ state: "visible", timeout: RESULT_TIMEOUT }));
      const line = (await bag.locator("li").first().innerText().catch(() => "")).replace(/\s+/g, " ");
      return { ms, changed: /Size L\b/.test(line) ? undefined : `tapped size L, the bag has '${line.slice(0, 80)}'` };
    },
  },
  "blog-reaction": {
    path: "/blogs/campus-mission-week",
    async run(page, delay) {
      const button = page.locator("#reactions button.reaction").first();
      await button.scrollIntoViewIfNeeded(); // the reader is at the reactions (not by a touch: a touch is a first use)
      await waitAfterLoad(page, delay);
      const ms = await timedTap(button, () =>
        page.locator('#reactions button.reaction[aria-pressed="true"]').first().waitFor({ state: "attached", timeout: RESULT_TIMEOUT }),
      );
      return { ms };
    },
  },
  "vespers-subscribe": {
    path: "/vespers",
    async run(page, delay) {
      // The 'Get vespers updates' section's form (the same on the old build, which has no id on it).
      const box = page.locator('section[aria-labelledby="updates-title"] form');
      const email = box.getByLabel("Email address");
      // The announcement covers the page once on a first visit (this build: 300 ms after load, by a
      // script of its own; the old one: 300 ms after its scripts have started): a reader closes it
      // when it shows, and only then can use the page (a tap under the open modal reaches nothing).
      const later = page.getByRole("button", { name: "Maybe Later" });
      await waitAfterLoad(page, delay);
      if (await later.waitFor({ state: "visible", timeout: ANNOUNCEMENT_WAIT }).then(() => true, () => false)) {
        await later.tap();
        await later.waitFor({ state: "hidden", timeout: RESULT_TIMEOUT });
      }
      const address = `first-touch-${crypto.randomBytes(4).toString("hex")}@example.com`;
      await email.scrollIntoViewIfNeeded();
      await email.tap();
      await page.keyboard.type(address, { delay: 60 });
      const typed = await email.inputValue();
      const ms = await timedTap(box.getByRole("button", { name: "Subscribe" }), () =>
        page.getByText("Thanks! We will email vespers stories and event details soon.").first().waitFor({ state: "visible", timeout: RESULT_TIMEOUT }),
      );
      return { ms, lost: typed === address ? undefined : `typed '${address}', the field had '${typed}'` };
    },
  },
};

/** One journey on one site at one delay, in a fresh context. */
export async function runJourney(browser, origin, name, delayMs) {
  const journey = JOURNEYS[name];
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
    await page.goto(origin + journey.path, { waitUntil: "load" });
    return await journey.run(page, delayMs);
  } catch (e) {
    return { ms: NaN, error: e instanceof Error ? e.message.split("\n")[0] : String(e) };
  } finally {
    await context.close();
  }
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

/**
 * Every journey at every delay, `runs` times, the builds taking turns; medians per cell. With
 * `check`, the failures: this build slower than the old by more than 10% plus 50 ms at a delay of
 * 3 s or more (or a cell there with no result on the old build: nothing was compared), or any run
 * on this build (the old build's are only reported) that changed a choice, lost text or saw no result.
 */
export async function compareJourneys(browser, sites, { journeys, delays, runs }) {
  const results = new Map();
  const key = (site, j, d) => `${site}|${j}|${d}`;
  for (let r = 0; r < runs; r++)
    for (const j of journeys)
      for (const d of delays)
        for (const site of r % 2 ? [...sites].reverse() : sites) {
          const out = await runJourney(browser, site.origin, j, d * 1000);
          const k = key(site.name, j, d);
          if (!results.has(k)) results.set(k, []);
          results.get(k).push(out);
          const note = out.error ?? out.changed ?? out.lost ?? "";
          console.log(`[first-touch] ${site.name} ${j} at ${d} s: ${Number.isFinite(out.ms) ? `${out.ms} ms` : "no result"}${note ? ` (${note})` : ""}`);
        }
  const rows = [];
  const failures = [];
  const [now, old] = sites;
  for (const j of journeys)
    for (const d of delays) {
      const mine = results.get(key(now.name, j, d)) ?? [];
      const theirs = old ? (results.get(key(old.name, j, d)) ?? []) : [];
      const a = median(mine.map((x) => x.ms));
      const b = median(theirs.map((x) => x.ms));
      const spoilt = mine.filter((x) => x.changed || x.lost || x.error).length;
      rows.push([j, `${d} s`, Number.isFinite(a) ? `${a} ms` : "-", old ? (Number.isFinite(b) ? `${b} ms` : "-") : "", `${spoilt} of ${mine.length}`]);
      if (spoilt) failures.push(`${j} at ${d} s: ${spoilt} run(s) changed a choice, lost text or had no result on this build`);
      if (old && d >= 3 && !Number.isFinite(b)) failures.push(`${j} at ${d} s: no result on ${old.name}, so nothing to compare with`);
      else if (old && d >= 3 && !(a <= b * 1.1 + 50)) failures.push(`${j} at ${d} s: ${a} ms on this build, ${b} ms on ${old.name}`);
    }
  return { rows, failures, headers: ["journey", "tap after load", `${now.name} tap to result`, old ? `${old.name} tap to result` : "", "runs spoilt"] };
}
