// Analytics at scale for `npm run bench` (issue 6: with 1,000,000 tracked events in the database,
// every analytics call and both staff dashboards answer in under 200 ms).
//
// A site of its own, from the same build as the bench's site, on a data folder prepared here:
//   1. start it once on an empty DATA_DIR (migrations, seeds), stop it;
//   2. write the events straight into DATA_DIR/site.db with better-sqlite3, one transaction
//      (generateEvents below: `events` in the last 90 days plus 30 older days at the same rate);
//   3. start it again: its start-up roll-up summarises every event and rolls the days past the
//      90-day retention into daily counts (timed here, waiting on the database);
//   4. time each mode of GET /api/analytics.php (admin key) and both dashboards (staff session).
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { addCleanup, freePort, ROOT, TMP_DIR } from "./server.mjs";
import { printTable } from "./util.mjs";

const require = createRequire(import.meta.url);
export const ANALYTICS_BUDGET_MS = 200;

// ---------------------------------------------------------------- the data set
//
// A realistic mix of tracked events over ~120 days, written straight into the site's SQLite file
// (the site stopped) in one transaction.
//
// Visits, not independent rows: a visitor (new, or one of the returning ones) arrives from a
// referrer or directly, views 1-8 pages (the site's page names, popular ones far more often),
// triggers a few named events, and reads blog posts (a blog.view each, a fifth from share links).
// Traffic follows Nairobi's day (little at night, peaks in the evening), a weekly rhythm (Friday
// vespers nights), slow growth, and a campaign spike. A seeded PRNG makes the set repeatable.

const DAY = 86_400_000;

export const BENCH_PAGES = [
  ["home", "/", 30],
  ["event.badges", "/event", 14],
  ["vespers", "/vespers", 10],
  ["blogs", "/blogs", 9],
  ["badges", "/badges", 8],
  ["merch.store", "/merchandise", 8],
  ["about", "/about", 7],
  ["join", "/join", 6],
  ["ministry", "/ministry", 4],
  ["join.thanks", "/join/thanks", 1],
  ["privacy", "/privacy", 1],
  ["event.previews", "/event/previews", 0.5],
  ["newsletter", "/newsletter", 0.5],
];
export const BLOGS = [
  ["friday-night-on-the-walk", 10],
  ["campus-mission-week", 6],
  ["why-six-hours-a-week", 5],
  ["building-the-badge-kit", 3],
  ...Array.from({ length: 26 }, (_, i) => [`archive-post-${i + 1}`, 1 / (i + 2)]),
];
export const EVENTS = [
  ["cta.join", 8],
  ["cta.subscribe.click", 6],
  ["cta.subscribe.success", 2],
  ["cta.subscribe.error", 0.2],
  ["footer.subscribe.submit", 3],
  ["footer.subscribe.success", 2.5],
  ["footer.subscribe.error", 0.3],
  ["form.submit", 2],
  ["form.success", 1.6],
  ["form.error", 0.3],
  ["badge.view", 7],
  ["badge.download", 2],
  ["badge.copy_id", 1],
  ["badge.copy_link", 1],
  ["badge.share.linkedin", 0.8],
  ["badge.share.whatsapp", 1.2],
  ["blog.open_linkedin", 1.5],
  ["blog.copy_link", 1],
  ["blog.share.whatsapp", 1.4],
  ["blog.share.twitter", 0.4],
  ["blog.share.facebook", 0.6],
  ["merch.store view", 5],
  ["merch.item.view", 6],
  ["merch.cart.add", 2],
  ["merch.checkout.submit", 0.6],
  ["merch.share.copy", 0.4],
  ["merch.share.native", 0.3],
  ["merch.share.whatsapp", 0.5],
  ["merch.share.twitter", 0.1],
  ["merch.admin.orders_loaded", 0.1],
  ["share.click", 1],
  ["share.success", 0.7],
  ["share.copied", 0.5],
  ["share.failed", 0.05],
  ["badge.order.submitted", 0.5],
];
export const REFERRERS = [
  ["", 50],
  ["https://www.google.com/", 15],
  ["https://web.whatsapp.com/", 9],
  ["https://l.facebook.com/l.php", 8],
  ["https://www.linkedin.com/feed/", 7],
  ["https://t.co/abc", 4],
  ["https://www.instagram.com/", 3],
  ["https://duckduckgo.com/", 1.5],
  ["https://www.bing.com/", 1.5],
  ["https://news.example.org/kenya/outreach", 1],
];

/** mulberry32: small, fast, good enough for test data. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function picker(rand, list, weightOf = (x) => x[x.length - 1]) {
  const cum = [];
  let sum = 0;
  for (const x of list) cum.push((sum += weightOf(x)));
  return () => {
    const r = rand() * sum;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return list[lo];
  };
}

/** Share of a day's traffic in each UTC hour: Nairobi is UTC+3, quiet at night, busy 18-22 EAT. */
const HOURLY = Array.from({ length: 24 }, (_, utcHour) => {
  const eat = (utcHour + 3) % 24;
  if (eat < 6) return 0.2;
  if (eat < 9) return 0.8;
  if (eat < 17) return 1.2;
  if (eat < 23) return 2.2;
  return 0.6;
});

/**
 * Writes the events straight into `db` (a better-sqlite3 Database on the site's file) in one
 * transaction: `recentEvents` within the last `recentDays` days and, at the same daily rate,
 * `olderDays` more days before them (old enough for the site's roll-up to fold into daily counts).
 * Returns what it wrote.
 */
export function generateEvents(db, { now = Date.now(), recentEvents = 1_000_000, recentDays = 90, olderDays = 30, seed = 20261121, origin = "https://streetlight.example" } = {}) {
  const rand = prng(seed);
  const page = picker(rand, BENCH_PAGES);
  const blog = picker(rand, BLOGS);
  const event = picker(rand, EVENTS);
  const referrer = picker(rand, REFERRERS);
  const hour = picker(rand, HOURLY.map((w, h) => [h, w]));
  const days = recentDays + olderDays;
  const today = Math.floor(now / DAY) * DAY;

  // Relative weight of each day (0 = oldest): weekly rhythm, growth, a campaign fortnight.
  const weights = Array.from({ length: days }, (_, i) => {
    const t = today - (days - 1 - i) * DAY;
    const dow = new Date(t).getUTCDay();
    const weekly = dow === 5 ? 1.6 : dow === 6 || dow === 0 ? 1.2 : 1;
    const growth = 0.7 + (0.6 * i) / days;
    const campaign = i > days - 40 && i < days - 26 ? 1.8 : 1;
    return weekly * growth * campaign;
  });
  // Per-event rate such that the last `recentDays` days hold `recentEvents` events (the partial
  // current day counts by the share of it that has passed).
  const dayShare = (now - today) / DAY;
  const recentWeight = weights.slice(olderDays).reduce((s, w, i) => s + w * (i === recentDays - 1 ? dayShare : 1), 0);
  const perWeight = recentEvents / recentWeight;

  const clients = [];
  const newCid = () => {
    let s = "";
    for (let i = 0; i < 4; i++) s += Math.floor(rand() * 0x100000000).toString(16).padStart(8, "0");
    return s;
  };
  const insert = db.prepare(
    "insert into analytics_events (ts, type, name, path, ref, src, meta, cid) values (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  let written = 0;
  let writtenRecent = 0;
  const recentFrom = now - recentDays * DAY;
  const counts = { "page.view": 0, event: 0, "blog.view": 0 };

  db.transaction(() => {
    for (let d = 0; d < days; d++) {
      const dayStart = today - (days - 1 - d) * DAY;
      const end = d === days - 1 ? now : dayStart + DAY;
      let target = Math.round(weights[d] * perWeight * (d === days - 1 ? dayShare : 1));
      const rows = [];
      while (target > 0) {
        // One visit.
        const returning = clients.length > 50 && rand() < 0.45;
        const cid = returning ? clients[Math.floor(Math.pow(rand(), 1.6) * clients.length)] : newCid();
        if (!returning) clients.push(cid);
        let t = dayStart + hour()[0] * 3_600_000 + Math.floor(rand() * 3_600_000);
        let ref = referrer()[0];
        const pages = 1 + Math.floor(Math.pow(rand(), 2) * 8);
        for (let p = 0; p < pages && target > 0; p++) {
          const isBlog = rand() < 0.18;
          const [name, path] = isBlog ? (() => {
            const slug = blog()[0];
            return [`blogs.${slug}`, `/blogs/${slug}`, slug];
          })() : page();
          rows.push([t, "page.view", name, path, ref, "", "{}", cid]);
          target--;
          if (isBlog && target > 0) {
            const slug = path.slice("/blogs/".length);
            rows.push([t, "blog.view", slug, "", ref, rand() < 0.2 ? "share" : "site", "{}", cid]);
            target--;
          }
          const events = Math.floor(Math.pow(rand(), 1.5) * 3.4);
          for (let e = 0; e < events && target > 0; e++) {
            t += 2_000 + Math.floor(rand() * 40_000);
            const name = event()[0];
            rows.push([t, "event", name, path, "", "", name.includes("badge") ? '{"tier":"t3"}' : "{}", cid]);
            target--;
          }
          ref = origin + path;
          t += 10_000 + Math.floor(rand() * 120_000);
        }
      }
      rows.sort((a, b) => a[0] - b[0]);
      for (const r of rows) {
        const ts = Math.min(r[0], end - 1);
        insert.run(new Date(ts).toISOString(), r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
        counts[r[1]]++;
        written++;
        if (ts >= recentFrom) writtenRecent++;
      }
    }
  })();
  return { written, writtenRecent, clients: clients.length, counts, from: new Date(today - (days - 1) * DAY).toISOString(), to: new Date(now).toISOString() };
}

// ---------------------------------------------------------------- the measurements

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/** `node app/server/start.mjs` in `cwd` on `dataDir`; resolves once GET / answers. */
async function startOn({ cwd, dataDir, port, adminKey, logFile }) {
  const origin = `http://127.0.0.1:${port}`;
  const env = { ...process.env };
  for (const k of ["SMTP_URL", "DATABASE_PATH", "TRUST_PROXY", "HOST", "PORT", "PUBLIC_URL", "DATA_DIR", "ANALYTICS_RETENTION_DAYS"]) delete env[k];
  Object.assign(env, { NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), PUBLIC_URL: origin, ALLOW_LOCAL_PUBLIC_URL: "on", DATA_DIR: dataDir, RATE_LIMIT: "off", ADMIN_KEY: adminKey });
  const log = fs.openSync(logFile, "a");
  const proc = spawn(process.execPath, ["app/server/start.mjs"], { cwd, env, stdio: ["ignore", log, log], detached: true });
  fs.closeSync(log);
  let exited = null;
  const done = new Promise((r) => proc.once("exit", (code, signal) => r((exited = { code, signal }))));
  const stop = async () => {
    if (exited) return;
    try {
      process.kill(-proc.pid, "SIGTERM");
    } catch {}
    await Promise.race([done, sleep(15_000)]);
    if (!exited) {
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch {}
      await Promise.race([done, sleep(3_000)]);
    }
  };
  const removeCleanup = addCleanup(stop);
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (exited) throw new Error(`the analytics site exited (${JSON.stringify(exited)}); see ${path.relative(ROOT, logFile)}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the analytics site did not answer; see ${path.relative(ROOT, logFile)}`);
    }
    try {
      const res = await fetch(origin + "/", { signal: AbortSignal.timeout(3000) });
      await res.arrayBuffer();
      break;
    } catch {
      await sleep(250);
    }
  }
  return {
    origin,
    pid: proc.pid,
    async stop() {
      await stop();
      removeCleanup();
    },
  };
}

function readState(dbPath) {
  const Database = require("better-sqlite3");
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    const state = db.prepare("select summarized_id, rolled_before, rolling_day from analytics_rollup_state where id = 1").get();
    const max = db.prepare("select max(id) as id from analytics_events").get().id ?? 0;
    return { ...state, maxId: max };
  } finally {
    db.close();
  }
}

function tableSizes(dbPath) {
  const Database = require("better-sqlite3");
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const count = (t) => db.prepare(`select count(*) as n from ${t}`).get().n;
    const range = db.prepare("select min(ts) as a, max(ts) as b from analytics_events").get();
    const daily = db.prepare("select min(day) as a, max(day) as b, sum(total) as n from analytics_daily").get();
    return {
      raw: count("analytics_events"),
      rawFrom: range.a,
      daily: count("analytics_daily"),
      dailyFrom: daily.a,
      summarizedEvents: daily.n,
      refs: count("analytics_daily_refs"),
      clients: count("analytics_clients"),
      bytes: fs.statSync(dbPath).size + (fs.existsSync(`${dbPath}-wal`) ? fs.statSync(`${dbPath}-wal`).size : 0),
    };
  } finally {
    db.close();
  }
}

/** A staff session cookie, through the sign-in form as a browser would get it. */
async function signIn(origin, adminKey) {
  const res = await fetch(`${origin}/admin`, {
    method: "POST",
    // Staff forms are accepted from the site's own pages only: a browser sends its Origin.
    headers: { "content-type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams({ intent: "sign-in", key: adminKey, returnTo: "/admin" }),
    redirect: "manual",
  });
  await res.arrayBuffer();
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  if (res.status !== 302 || !cookie.startsWith("__admin=")) throw new Error(`sign-in answered ${res.status}`);
  return cookie;
}

/**
 * Section h of the bench. `site` is the bench's running site (its build is reused); `budget` adds
 * a budget row. Returns the rows it measured.
 */
export async function analyticsScale(site, budget, { events = 1_000_000, runs = 15, warmup = 3 } = {}) {
  const cwd = site.tree ?? ROOT;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-analytics-data-"));
  const dbPath = path.join(dataDir, "site.db");
  const logFile = path.join(TMP_DIR, "bench", `analytics-${process.pid}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const adminKey = `bench-analytics-${Date.now().toString(36)}-key`;
  const port = await freePort();
  let server;
  try {
    console.log(`\n## h. Analytics with ${events.toLocaleString("en-GB")} events in the last 90 days (+30 older days, rolled up at start-up)`);
    server = await startOn({ cwd, dataDir, port, adminKey, logFile });
    await server.stop();

    const Database = require("better-sqlite3");
    const db = new Database(dbPath);
    db.pragma("journal_mode = WAL");
    const t0 = performance.now();
    const made = generateEvents(db, { recentEvents: events, origin: `http://127.0.0.1:${port}` });
    const genMs = performance.now() - t0;
    db.close();
    console.log(
      `generated ${made.written.toLocaleString("en-GB")} events (${made.writtenRecent.toLocaleString("en-GB")} in the last 90 days; ` +
        `${made.counts["page.view"].toLocaleString("en-GB")} page views, ${made.counts.event.toLocaleString("en-GB")} events, ` +
        `${made.counts["blog.view"].toLocaleString("en-GB")} blog views; ${made.clients.toLocaleString("en-GB")} clients) ` +
        `from ${made.from.slice(0, 10)} to ${made.to.slice(0, 16)} in ${(genMs / 1000).toFixed(1)} s, one transaction`,
    );

    const t1 = performance.now();
    const logFrom = fs.statSync(logFile).size;
    server = await startOn({ cwd, dataDir, port, adminKey, logFile });
    // The start-up roll-up: wait for the line the site logs when a run that did work ends.
    let state;
    let rollupLine;
    for (;;) {
      const fd = fs.openSync(logFile, "r");
      const buf = Buffer.alloc(fs.fstatSync(fd).size - logFrom);
      fs.readSync(fd, buf, 0, buf.length, logFrom);
      fs.closeSync(fd);
      rollupLine = buf.toString("utf8").split("\n").find((l) => l.replace(/^[A-Z]+ /, "").startsWith("[analytics] summarised"));
      if (rollupLine) break;
      if (performance.now() - t1 > 900_000) throw new Error(`the roll-up did not finish in 15 minutes (${JSON.stringify(readState(dbPath))})`);
      await sleep(500);
    }
    const catchUpMs = performance.now() - t1;
    state = readState(dbPath);
    if (state.summarized_id < made.written || state.rolling_day) throw new Error(`the roll-up stopped early: ${JSON.stringify(state)}`);
    console.log(`site: ${rollupLine}`);
    const sizes = tableSizes(dbPath);
    printTable(
      ["after start-up roll-up", "value"],
      [
        ["start + summarise + roll up (s)", (catchUpMs / 1000).toFixed(1)],
        ["raw events kept", sizes.raw.toLocaleString("en-GB")],
        ["oldest raw event", sizes.rawFrom],
        ["events in daily counts (all)", Number(sizes.summarizedEvents).toLocaleString("en-GB")],
        ["analytics_daily rows", `${sizes.daily.toLocaleString("en-GB")} (from ${sizes.dailyFrom})`],
        ["analytics_daily_refs rows", sizes.refs.toLocaleString("en-GB")],
        ["analytics_clients rows", sizes.clients.toLocaleString("en-GB")],
        ["database + WAL (MB)", (sizes.bytes / 1e6).toFixed(0)],
        ["rolled up before", state.rolled_before],
      ],
    );

    const cookie = await signIn(server.origin, adminKey);
    const calls = [
      ["api active_now (window 5)", "/api/analytics.php?mode=active_now"],
      ["api active_now (window 1440)", "/api/analytics.php?mode=active_now&window=1440"],
      ...["blog_views", "page_views", "events"].flatMap((mode) => [
        [`api ${mode} (since 30)`, `/api/analytics.php?mode=${mode}`],
        [`api ${mode} (since 1)`, `/api/analytics.php?mode=${mode}&since=1`],
        [`api ${mode} (since 90, unique)`, `/api/analytics.php?mode=${mode}&since=90&unique=1`],
        [`api ${mode} (since 0 = all)`, `/api/analytics.php?mode=${mode}&since=0`],
      ]),
      ["page /admin/activity", "/admin/activity", "page"],
      ["page /admin/activity (all time, unique, 1 day)", "/admin/activity?since=0&unique=1&window=1440", "page"],
      ["page /admin/engagement", "/admin/engagement", "page"],
    ];
    const rows = [];
    for (const [label, url, kind] of calls) {
      const headers = kind === "page" ? { cookie } : { "x-admin-key": adminKey };
      const once = async () => {
        const t = performance.now();
        const res = await fetch(server.origin + url, { headers });
        const body = await res.text();
        const ms = performance.now() - t;
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 200)}`);
        if (kind === "page" && !body.includes("Sign out")) throw new Error(`${url} did not show the signed-in screen`);
        return { ms, bytes: body.length, body };
      };
      for (let i = 0; i < warmup; i++) await once();
      const times = [];
      let sample;
      for (let i = 0; i < runs; i++) {
        const r = await once();
        times.push(r.ms);
        sample = r;
      }
      let size = `${(sample.bytes / 1000).toFixed(1)} kB`;
      if (kind !== "page") {
        const json = JSON.parse(sample.body);
        size += json.items ? `, ${json.items.length} rows` : `, total ${json.total}`;
      }
      rows.push([label, percentile(times, 50).toFixed(1), percentile(times, 90).toFixed(1), Math.max(...times).toFixed(1), size]);
    }
    printTable(["request", "median ms", "p90 ms", "max ms", "answer"], rows);
    console.log(`(${runs} timed requests each after ${warmup} warm-up, one at a time, over loopback; client and server share the machine)`);
    const worstP90 = rows.reduce((w, r) => (Number(r[2]) > Number(w[2]) ? r : w));
    const worstMedian = rows.reduce((w, r) => (Number(r[1]) > Number(w[1]) ? r : w));
    budget(
      `analytics, ${events.toLocaleString("en-GB")} events: slowest median`,
      Number(worstMedian[1]) < ANALYTICS_BUDGET_MS,
      `${worstMedian[1]} ms (${worstMedian[0]})`,
      `< ${ANALYTICS_BUDGET_MS} ms`,
    );
    budget(
      `analytics, ${events.toLocaleString("en-GB")} events: slowest p90`,
      Number(worstP90[2]) < ANALYTICS_BUDGET_MS,
      `${worstP90[2]} ms (${worstP90[0]})`,
      `< ${ANALYTICS_BUDGET_MS} ms`,
    );
    return rows;
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
