// `npm run bench`: server throughput and first-load weight, measured on a private copy of the site.
//
//   node tests/bench/bench.mjs [--connections 50] [--duration 10] [--warmup 2] [--pages /a,/b]
//                              [--no-load] [--no-analytics] [--analytics-events N] [--no-ceiling] [--in-place] [--cpu-prof] [--check]
//                              [--orders-only] [--order-rounds N] [--memory-only]
//
// --no-load skips a and b; --in-place serves the checkout's build/ instead of a private snapshot
// (see server.mjs); --cpu-prof runs the server under `node --cpu-prof` and prints where its main
// thread spent its time while the load ran (profile in tests/.tmp/bench/profile/).
//
// a. GET / under load (autocannon, loopback), without and with Accept-Encoding: gzip.
// b. POST /newsletter (the footer form) under load, a new email on every request; then the stored
//    subscribers (DATA_DIR/site.db) are reconciled with the 2xx answers.
// c. First-load JavaScript and CSS per page of tests/bench/pages.mjs, gzip level 9.
// d. Budgets. With --check the exit code is 1 when one fails.
// g. 200 merch orders at once (store.mjs), each stored with the server-computed total.
// i. Daraja C2B confirmations (mpesa.mjs): 1,000 payments, each confirmed twice, 50 at once;
//    p99 acknowledgement time, and the payments stored once each.
// j. A 20,000-row M-PESA statement previewed and imported (mpesa.mjs).
// m. 200 badge orders paid by M-Pesa prompt at once through the fake Daraja (stk.mjs): the order
//    POST's p99, and every order verified once. The site runs with the fake's DARAJA_* settings.
// l. 500 door check-ins (checkin.mjs): signed tickets through POST /api/checkin.php;
//    total time and p99, and every arrival stored once (4 door phones at once; BENCH_DOORS).
// k. Every page of --pages as first visits (no cookie) under load, beside a bare node:http server
//    answering with the same bytes from memory in a process of its own (ceiling.mjs); the share of
//    that ceiling and p99 are budgets for / and /blogs. --no-ceiling skips it.
// m. Badge orders under load (orders.mjs): POST /api/badge_orders.php at --connections for --duration,
//    on f22739e and on this checkout in the same run, each on a site started for it (an empty
//    database, as f22739e's), and the ratio; then once on the bench's site as the other sections
//    left it (printed, not budgeted); every 2xx order stored.
//    --orders-only runs only c's start-up and m (with --cpu-prof: both servers profiled).
// n. Memory (memory.mjs): supervisor and server process RSS idle after start-up, at the peak of
//    60 s of mixed load (pages, orders, confirmations, a kit image a second) and after; budgets
//    for a 1 GB server. Measured first, on the fresh site. --memory-only runs only n.
// h. Analytics at scale (analytics.mjs): a second site on a data folder holding --analytics-events
//    (default 1,000,000) tracked events, every /api/analytics.php mode and both staff dashboards
//    timed. --no-analytics skips it.
//
// c is measured first (before the load heats the machine) and printed after b. Client and server
// share the machine's cores, so the request rates are lower bounds; the server's CPU time per
// request (from /proc) is printed too, as it moves much less when other work shares the machine.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import zlib from "node:zlib";
import autocannon from "autocannon";
import { PAGES } from "./pages.mjs";
import { startSite, stopAll } from "./server.mjs";
import { commandArgs, kB, parsePageList, positiveInt, printTable } from "./util.mjs";
import { concurrentOrders, kitTiming } from "./badges.mjs";
import { concurrentMerchOrders } from "./store.mjs";
import { analyticsScale } from "./analytics.mjs";
import { callbacks, statementImport } from "./mpesa.mjs";
import { doorCheckIns } from "./checkin.mjs";
import { pageCeilings } from "./ceiling.mjs";
import { BASELINE, orderComparison } from "./orders.mjs";
import { ordersPaidByPush } from "./stk.mjs";
import { startDarajaFake } from "../support/daraja-fake.mjs";
import { memoryUnderLoad } from "./memory.mjs";

const require = createRequire(import.meta.url);

const BUDGET = {
  getRps: 1000, // GET / requests/s at 50 connections (each variant: plain and gzip)
  homeJsGzipKB: 120, // first-load JS of / in kB gzip (1 kB = 1000 bytes)
};

const USAGE =
  "usage: node tests/bench/bench.mjs [--connections 50] [--duration 10] [--warmup 2] [--pages /a,/b]\n" +
  "                                  [--no-load] [--no-analytics] [--analytics-events N] [--no-ceiling] [--in-place] [--cpu-prof] [--check]\n" +
  "                                  [--orders-only] [--order-rounds N] [--memory-only]";

const { args, connections, duration, warmup, pages } = commandArgs(
  USAGE,
  {
    connections: { type: "string", default: "50" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    pages: { type: "string" },
    "no-load": { type: "boolean", default: false },
    "no-analytics": { type: "boolean", default: false },
    "no-ceiling": { type: "boolean", default: false },
    "analytics-events": { type: "string", default: "1000000" },
    "in-place": { type: "boolean", default: false },
    "cpu-prof": { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    "orders-only": { type: "boolean", default: false },
    "memory-only": { type: "boolean", default: false },
    // Three alternating rounds: one 10 s run a side was at the mercy of this shared machine
    // (f22739e alone gave 408-761 req/s and p99 103-303 ms across single runs on one day).
    "order-rounds": { type: "string", default: "3" },
  },
  (args) => {
    const warmup = Number(args.warmup);
    if (!Number.isFinite(warmup) || warmup < 0) throw new Error("--warmup must be >= 0 seconds");
    positiveInt("--analytics-events", args["analytics-events"]);
    positiveInt("--order-rounds", args["order-rounds"]);
    return {
      connections: positiveInt("--connections", args.connections),
      duration: positiveInt("--duration", args.duration),
      warmup,
      pages: args.pages ? parsePageList(args.pages) : PAGES,
    };
  },
);

const budgetRows = [];
function budget(name, ok, measured, limit) {
  budgetRows.push([name, measured, limit, ok ? "PASS" : "FAIL"]);
}

// ---------------------------------------------------------------- a/b: load

let serverPid;

/** CPU time (ms, user + system) the site process has used so far; null where /proc is missing. */
function serverCpuMs() {
  try {
    const stat = fs.readFileSync(`/proc/${serverPid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[11], fields[12] = utime, stime (fields 14 and 15 of the file) in clock ticks (100/s)
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * One autocannon run. Also records the CPU the server and this process (the load tool) used,
 * which other work on the machine disturbs much less than the request rate.
 */
async function cannon(opts) {
  const cpu0 = serverCpuMs();
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await new Promise((resolve, reject) => {
    const inst = autocannon({ timeout: 10, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
    stopCurrent = () => inst.stop();
  });
  const wall = performance.now() - t0;
  const cpu1 = serverCpuMs();
  const own = process.cpuUsage(own0);
  result.serverCpuMs = cpu0 === null || cpu1 === null ? null : cpu1 - cpu0;
  result.clientCpuShare = (own.user + own.system) / 1000 / wall;
  result.wallMs = wall;
  return result;
}
let stopCurrent = () => {};

function loadRow(label, r) {
  return [
    label,
    r.requests.average.toFixed(0),
    r.latency.p50.toFixed(0),
    r.latency.p99.toFixed(0),
    r["2xx"],
    r.non2xx,
    r.errors,
    r.timeouts,
    r.requests.total ? (r.throughput.total / r.requests.total / 1000).toFixed(1) : "-",
    r.serverCpuMs === null ? "-" : `${((r.serverCpuMs / r.wallMs) * 100).toFixed(0)}%`,
    r.serverCpuMs === null || !r.requests.total ? "-" : (r.serverCpuMs / r.requests.total).toFixed(2),
    `${(r.clientCpuShare * 100).toFixed(0)}%`,
  ];
}
const LOAD_HEADERS = [
  "run",
  "req/s (avg)",
  "p50 ms",
  "p99 ms",
  "2xx",
  "non-2xx",
  "errors",
  "timeouts",
  "kB/resp",
  "server CPU",
  "server CPU ms/req",
  "load tool CPU",
];
const CPU_NOTE =
  "(CPU columns: share of one core over the run; server CPU ms/req x req/s = server CPU share. " +
  "1000 / (server CPU ms/req) is the rate one free core could serve.)";

/** Checks once that the server really gzips the home page when asked. */
async function gzipProbe(origin) {
  const http = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = http.get(origin + "/", { headers: { "accept-encoding": "gzip" } }, (res) => {
      let bytes = 0;
      res.on("data", (c) => (bytes += c.length));
      res.on("end", () => resolve({ status: res.statusCode, encoding: res.headers["content-encoding"] ?? "none", bytes }));
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
  });
}

async function getLoad(site) {
  const url = site.origin + "/";
  if (warmup > 0) {
    await cannon({ url, connections: Math.min(10, connections), duration: warmup });
  }
  const probe = await gzipProbe(site.origin);
  const [l1, l5] = os.loadavg();
  console.log(
    `machine: ${os.cpus().length} cores shared by the load tool and the server; load average before the runs ${l1.toFixed(2)} (1 min), ${l5.toFixed(2)} (5 min)`,
  );
  console.log(
    `\n## a. GET / under load (${connections} connections, ${duration} s each, after a ${warmup} s warm-up)`,
  );
  console.log(`gzip probe: GET / with Accept-Encoding: gzip -> ${probe.status}, content-encoding ${probe.encoding}, ${kB(probe.bytes)} kB on the wire`);
  const plain = await cannon({ url, connections, duration });
  const gz = await cannon({ url, connections, duration, headers: { "accept-encoding": "gzip" } });
  printTable(LOAD_HEADERS, [loadRow("GET / (identity)", plain), loadRow("GET / (gzip)", gz)]);
  console.log(CPU_NOTE);
  console.log(`load average after the runs: ${os.loadavg()[0].toFixed(2)} (1 min)`);
  for (const [name, r] of [["identity", plain], ["gzip", gz]]) {
    budget(
      `GET / ${name}: req/s at ${connections} connections`,
      r.requests.average >= BUDGET.getRps && r.non2xx === 0 && r.errors === 0,
      `${r.requests.average.toFixed(0)} req/s, ${r.non2xx} non-2xx, ${r.errors} errors`,
      `>= ${BUDGET.getRps} req/s, 0 non-2xx`,
    );
  }
  if (connections !== 50) console.log(`(note: the budget is stated for 50 connections; this run used ${connections})`);
}

async function postLoad(site) {
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  let built = 0;
  const sent = new Set();
  const answered2xx = new Set();
  const otherStatus = new Map();
  let firstBad;
  const form = (email) =>
    `email=${encodeURIComponent(email)}&source=${encodeURIComponent("footer:/")}&variant=footer`;

  // Warm the action path with one request (kept out of the figures and out of the reconciliation).
  const warm = await fetch(site.origin + "/newsletter", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form(`warm-${runId}@example.org`),
  });
  await warm.arrayBuffer();
  if (warm.status !== 200) console.log(`warning: a single POST /newsletter answered ${warm.status}`);

  const Database = require("better-sqlite3");
  const countRows = () => {
    const db = new Database(site.dbPath, { readonly: true, fileMustExist: true });
    try {
      const all = db.prepare("SELECT count(*) AS n FROM subscribers").get().n;
      const emails = db
        .prepare("SELECT email FROM subscribers WHERE email LIKE ?")
        .all(`bench-${runId}-%`)
        .map((r) => r.email);
      return { all, emails };
    } finally {
      db.close();
    }
  };
  const before = countRows();

  console.log(`\n## b. POST /newsletter (footer form) under load (${connections} connections, ${duration} s)`);
  const r = await cannon({
    url: site.origin,
    connections,
    duration,
    requests: [
      {
        method: "POST",
        path: "/newsletter",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        setupRequest(req, context) {
          const email = `bench-${runId}-${++built}@example.org`;
          context.email = email;
          sent.add(email);
          req.body = form(email);
          return req;
        },
        onResponse(status, body, context) {
          if (status >= 200 && status < 300) answered2xx.add(context.email);
          else {
            otherStatus.set(status, (otherStatus.get(status) ?? 0) + 1);
            firstBad ??= { status, body: String(body ?? "").slice(0, 300) };
          }
        },
      },
    ],
  });
  printTable(LOAD_HEADERS, [loadRow("POST /newsletter", r)]);
  if (firstBad) {
    console.log(`first non-2xx answer: ${firstBad.status} ${firstBad.body.replace(/\s+/g, " ")}`);
    console.log(`non-2xx by status: ${[...otherStatus].map(([s, n]) => `${s}: ${n}`).join(", ")}`);
  }

  // Requests still in flight when the run stopped may still be stored: wait until the count holds
  // still (bounded), then reconcile.
  let after = countRows();
  for (let i = 0; i < 20; i++) {
    await new Promise((res) => setTimeout(res, 250));
    const next = countRows();
    const stable = next.emails.length === after.emails.length;
    after = next;
    if (stable) break;
  }
  const stored = new Set(after.emails);
  const missing = [...answered2xx].filter((e) => !stored.has(e)); // answered 2xx but not stored
  const unknown = [...stored].filter((e) => !sent.has(e)); // stored but never sent (impossible)
  const cutOff = [...stored].filter((e) => !answered2xx.has(e)); // stored, answer cut off by the stop
  const twoxx = r["2xx"];
  const table = [
    ["2xx answers (autocannon)", twoxx],
    ["2xx answers seen per email", answered2xx.size],
    ["requests sent", built],
    ["subscribers stored by this run", stored.size],
    ["  of them answered 2xx", stored.size - cutOff.length],
    ["  stored, answer never read (cut off at the end, or timed out)", cutOff.length],
    ["answered 2xx but not stored", missing.length],
    [`subscribers in the table (before -> after)`, `${before.all} -> ${after.all}`],
  ];
  printTable(["subscriber check", "count"], table);
  // Every 2xx answer is a stored row; the only rows without a 2xx are requests whose answer the
  // load tool never read: in flight when the time was up (at most one per connection), or given
  // up after its 10 s timeout (the tool then reconnects; the server still saved the address).
  const ok =
    missing.length === 0 &&
    unknown.length === 0 &&
    answered2xx.size === twoxx &&
    cutOff.length <= connections + r.errors;
  console.log(
    ok
      ? `stored subscribers = 2xx answers (${twoxx})` +
          (cutOff.length
            ? ` + ${cutOff.length} whose answer the load tool never read (at most ${connections} in flight at the cut-off + ${r.errors} timed out/errored)`
            : "")
      : `MISMATCH between stored subscribers and 2xx answers (${missing.length} answered 2xx but not stored, ` +
          `${unknown.length} stored but never sent, ${cutOff.length} stored without an answer for ${connections} connections + ${r.errors} errors)`,
  );
  budget(
    "POST /newsletter: non-2xx",
    r.non2xx === 0 && r.errors === 0,
    `${r.non2xx} non-2xx, ${r.errors} errors (${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms)`,
    "0",
  );
  budget(
    "POST /newsletter: stored = 2xx",
    ok,
    `${stored.size - cutOff.length} stored of ${twoxx} 2xx` + (cutOff.length ? ` (+${cutOff.length} cut off)` : ""),
    "equal",
  );
}

// ---------------------------------------------------------------- c: first-load weight

const attr = (tag, name) => {
  const m = tag.match(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i"));
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
};
const decode = (s) => s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'");

/** The JS and CSS a page's HTML asks for on first load. */
function assetsOf(html, pageUrl) {
  const js = new Set();
  const css = new Set();
  const abs = (href) => new URL(decode(href), pageUrl);
  const sameOrigin = (u) => u.origin === new URL(pageUrl).origin;

  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    const rel = (attr(tag, "rel") ?? "").toLowerCase().split(/\s+/);
    const href = attr(tag, "href");
    if (!href) continue;
    const u = abs(href);
    if (!sameOrigin(u)) continue;
    if (rel.includes("modulepreload")) js.add(u.href);
    // A disabled stylesheet is not fetched: a cached page carries it inline (app/lib/http/first-paint.server.ts).
    else if (rel.includes("stylesheet") && !/\sdisabled\b/i.test(tag)) css.add(u.href);
  }
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const tag = `<script${m[1]}>`;
    const type = (attr(tag, "type") ?? "").toLowerCase();
    const src = attr(tag, "src");
    if (src) {
      const u = abs(src);
      if (sameOrigin(u) && (type === "" || type === "module" || type === "text/javascript")) js.add(u.href);
      continue;
    }
    if (type !== "module") continue;
    // A cached page's boot script adds the module preloads itself, after the first paint.
    const preloads = /for \(const href of (\[[^\]]*\])\)/.exec(m[2]);
    for (const href of preloads ? JSON.parse(preloads[1]) : []) {
      const u = abs(href);
      if (sameOrigin(u)) js.add(u.href);
    }
    for (const i of m[2].matchAll(/\bimport\s*(?:\(\s*)?["']([^"']+\.js)["']/g)) {
      const u = abs(i[1]);
      if (sameOrigin(u) && u.pathname.startsWith("/assets/")) js.add(u.href);
    }
    for (const i of m[2].matchAll(/\bfrom\s*["']([^"']+\.js)["']/g)) {
      const u = abs(i[1]);
      if (sameOrigin(u) && u.pathname.startsWith("/assets/")) js.add(u.href);
    }
  }
  return { js, css };
}

/** Static imports of a built chunk (not dynamic import()), which the browser loads too. */
function staticImportsOf(code, chunkUrl) {
  const out = new Set();
  const re = /\b(?:import|export)\s*(?:\{[^}]*\}|\*\s*as\s+[\w$]+|[\w$]+(?:\s*,\s*(?:\{[^}]*\}|\*\s*as\s+[\w$]+))?)?\s*(?:from\s*)?["']([^"'\n]+\.js)["']/g;
  for (const m of code.matchAll(re)) {
    const u = new URL(m[1], chunkUrl);
    if (u.origin === new URL(chunkUrl).origin) out.add(u.href);
  }
  return out;
}

const assetCache = new Map();
async function asset(url) {
  if (!assetCache.has(url)) {
    assetCache.set(
      url,
      (async () => {
        const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        const body = Buffer.from(await res.arrayBuffer());
        if (!res.ok) throw new Error(`${url} answered ${res.status}`);
        return {
          raw: body.length,
          gz: zlib.gzipSync(body, { level: 9 }).length,
          br: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
          text: url.endsWith(".js") ? body.toString("utf8") : "",
        };
      })(),
    );
  }
  return assetCache.get(url);
}

/** Measures first (before the load runs heat the machine); returns a function that prints. */
async function firstLoad(site) {
  const rows = [];
  const broken = [];
  const details = [];
  let homeJs;
  for (const page of pages) {
    const pageUrl = site.origin + page;
    const res = await fetch(pageUrl, { signal: AbortSignal.timeout(15_000), headers: { "accept-encoding": "identity" } });
    const html = await res.text();
    if (!res.ok) {
      rows.push([page, res.status, "-", "-", "-", "-", "-", "-", "-", "-"]);
      broken.push(`${page} ${res.status}`);
      continue;
    }
    const { js, css } = assetsOf(html, pageUrl);
    // Follow static imports too (bounded): anything not listed in the HTML is a missed preload.
    const listed = new Set(js);
    const queue = [...js];
    for (let i = 0; i < queue.length && i < 500; i++) {
      const a = await asset(queue[i]);
      for (const dep of staticImportsOf(a.text, queue[i])) {
        if (!js.has(dep)) {
          js.add(dep);
          queue.push(dep);
        }
      }
    }
    let raw = 0;
    let gz = 0;
    let br = 0;
    const files = [];
    for (const u of js) {
      const a = await asset(u);
      raw += a.raw;
      gz += a.gz;
      br += a.br;
      files.push([new URL(u).pathname, a.gz, listed.has(u)]);
    }
    let cssGz = 0;
    for (const u of css) cssGz += (await asset(u)).gz;
    const htmlGz = zlib.gzipSync(Buffer.from(html), { level: 9 }).length;
    const unlisted = js.size - listed.size;
    rows.push([page, res.status, js.size, kB(raw), kB(gz), kB(br), unlisted, css.size, kB(cssGz), kB(htmlGz)]);
    details.push([page, files]);
    if (page === "/") homeJs = gz;
  }
  return () => {
  console.log(`\n## c. First-load JavaScript and CSS per page (gzip level 9, brotli 11 as the server sends it over HTTPS; 1 kB = 1000 bytes)`);
  printTable(
    ["page", "status", "JS files", "JS raw kB", "JS gzip kB", "JS br kB", "not preloaded", "CSS files", "CSS gzip kB", "HTML gzip kB"],
    rows,
  );
  // Per-file breakdown of the home page, and what each other page adds on top of it.
  const home = details.find(([p]) => p === "/");
  if (home) {
    console.log("\nhome page JS files (gzip kB):");
    for (const [f, g, isListed] of [...home[1]].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${kB(g).padStart(6)}  ${f}${isListed ? "" : "  (static import, not preloaded)"}`);
    }
    const homeFiles = new Set(home[1].map(([f]) => f));
    for (const [p, files] of details) {
      if (p === "/") continue;
      const extra = files.filter(([f]) => !homeFiles.has(f));
      if (extra.length) {
        console.log(
          `  ${p} adds: ${extra.map(([f, g]) => `${f.replace(/^\/assets\//, "")} ${kB(g)}`).join(", ")}`,
        );
      }
    }
  }
  budget("every listed page answers 2xx", broken.length === 0, broken.length ? broken.join(", ") : "all 2xx", "2xx");
  if (pages.includes("/")) {
    budget(
      "home first-load JS (gzip)",
      homeJs !== undefined && homeJs / 1000 <= BUDGET.homeJsGzipKB,
      homeJs === undefined ? "home page did not load" : `${kB(homeJs)} kB`,
      `<= ${BUDGET.homeJsGzipKB} kB`,
    );
  }
  };
}

// ---------------------------------------------------------------- --cpu-prof

const PROFILE_DIR = new URL("../.tmp/bench/profile/", import.meta.url).pathname;
const BASELINE_PROFILE_DIR = new URL("../.tmp/bench/profile-baseline/", import.meta.url).pathname;
/** [start, end] of the load runs in µs of the monotonic clock, for --cpu-prof. */
let loadWindow;
let baselineWindow;
const monoMicros = () => Number(process.hrtime.bigint() / 1000n);

/** Top self time by function and by package/file, from the server's .cpuprofile (written at exit). */
function printProfile(dir = PROFILE_DIR, window = loadWindow, title = "") {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")) : [];
  if (!files.length) throw new Error(`no .cpuprofile in ${dir}`);
  // The server process's profile: with npm start's supervisor there are two, the server's is the larger.
  const file = dir + files.sort((a, b) => fs.statSync(dir + a).size - fs.statSync(dir + b).size).at(-1);
  const prof = JSON.parse(fs.readFileSync(file, "utf8"));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  // Only the samples taken while the load ran (the profile's clock is the monotonic clock that
  // process.hrtime reads); all of them when the window holds none.
  const collect = (from, to) => {
    const dt = new Map();
    let t = prof.startTime;
    for (let i = 0; i < prof.samples.length; i++) {
      const d = prof.timeDeltas[i] ?? 0;
      t += d;
      if (t < from || t > to) continue;
      const id = prof.samples[i];
      dt.set(id, (dt.get(id) ?? 0) + d);
    }
    return dt;
  };
  let dt = window ? collect(window[0], window[1]) : new Map();
  let scope = "while the load ran";
  if (dt.size === 0) {
    dt = collect(-Infinity, Infinity);
    scope = "whole process, start-up and build wait included";
  }
  const total = [...dt.values()].reduce((a, b) => a + b, 0);
  const byFn = new Map();
  const byArea = new Map();
  const area = (url) => {
    if (!url) return "(native / V8)";
    const nm = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
    if (nm) return nm[1];
    if (url.startsWith("node:")) return "node core";
    if (url.includes("/build/server/")) return "site server bundle";
    return url.replace(/^file:\/\//, "");
  };
  for (const [id, t] of dt) {
    const cf = byId.get(id).callFrame;
    const fnKey = `${cf.functionName || "(anonymous)"}  ${area(cf.url)}${cf.url && !cf.url.includes("node_modules") ? `:${cf.lineNumber + 1}` : ""}`;
    byFn.set(fnKey, (byFn.get(fnKey) ?? 0) + t);
    byArea.set(area(cf.url), (byArea.get(area(cf.url)) ?? 0) + t);
  }
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`\n## Server CPU profile${title} (main thread, ${scope}; ${(total / 1e6).toFixed(1)} s sampled; ${file})`);
  printTable(["self time by package / area", "%"], top(byArea, 12).map(([k, t]) => [k, ((t / total) * 100).toFixed(1)]));
  printTable(["self time by function", "%"], top(byFn, 20).map(([k, t]) => [k, ((t / total) * 100).toFixed(1)]));
}

// ---------------------------------------------------------------- main

let exitCode = 0;
let site;
let daraja;
try {
  if (args["cpu-prof"]) fs.rmSync(PROFILE_DIR, { recursive: true, force: true });
  if (args["cpu-prof"]) fs.rmSync(BASELINE_PROFILE_DIR, { recursive: true, force: true });
  // M-Pesa Express on, against a local fake (orders that send a code, as the other cases do, are unchanged).
  daraja = await startDarajaFake();
  site = await startSite({
    label: "bench",
    inPlace: args["in-place"],
    nodeArgs: args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [],
    env: { DARAJA_BASE_URL: daraja.url, DARAJA_CONSUMER_KEY: daraja.consumerKey, DARAJA_CONSUMER_SECRET: daraja.consumerSecret, DARAJA_PASSKEY: daraja.passkey },
  });
  serverPid = site.pid;
  const orders = () =>
    orderComparison(site, budget, {
      connections,
      duration,
      rounds: Number(args["order-rounds"]),
      baselineNodeArgs: args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${BASELINE_PROFILE_DIR}`] : [],
      // After the other sections, this checkout's orders run on a site of their own, as f22739e's do.
      // Started from the bench site's own build (its snapshot, or the checkout with --in-place).
      startFresh: args["orders-only"] ? undefined : () => startSite({ label: "orders-this", ...(site.tree ? { cwd: site.tree } : { inPlace: true }) }),
      onRun: args["orders-only"]
        ? (which, edge) => {
            if (which === "new") loadWindow = edge === "start" ? [monoMicros(), Infinity] : [loadWindow[0], monoMicros()];
            else baselineWindow = edge === "start" ? [monoMicros(), Infinity] : [baselineWindow[0], monoMicros()];
          }
        : undefined,
    });
  // Memory first: the idle figure is the fresh site's, before any other section's load.
  if (!args["orders-only"]) await memoryUnderLoad(site, budget);
  const printFirstLoad = args["orders-only"] || args["memory-only"] ? () => {} : await firstLoad(site);
  if (args["memory-only"]) {
    /* n alone */
  } else if (args["orders-only"]) await orders();
  else if (!args["no-load"]) {
    const from = monoMicros();
    await getLoad(site);
    await postLoad(site);
    loadWindow = [from, monoMicros()];
    await kitTiming(site, budget);
    await concurrentOrders(site, budget);
    await concurrentMerchOrders(site, budget);
    await callbacks(site, budget);
    await statementImport(site, budget);
    await doorCheckIns(site, budget);
    await orders();
    await ordersPaidByPush(site, daraja, budget);
    if (!args["no-ceiling"]) await pageCeilings(site, budget, { pages, connections, duration });
  }
  if (!args["no-analytics"] && !args["orders-only"] && !args["memory-only"]) {
    await analyticsScale(site, budget, { events: Number(args["analytics-events"]) });
  }
  printFirstLoad();

  console.log("\n## d. Budgets");
  printTable(["budget", "measured", "limit", "result"], budgetRows);
  const failed = budgetRows.filter((r) => r[3] === "FAIL").length;
  console.log(
    failed
      ? `${failed} budget(s) failed${args.check ? " (--check: exit 1)" : " (run with --check to fail the command)"}`
      : "all budgets pass",
  );
  if (failed && args.check) exitCode = 1;
} catch (e) {
  stopCurrent();
  console.error(`\n[bench] failed: ${e instanceof Error ? e.stack ?? e.message : e}`);
  if (site && !site.alive()) {
    console.error(`[bench] the site process had exited (${JSON.stringify(site.exitInfo())}); last log lines:\n${site.logTail()}`);
  }
  exitCode = 1;
} finally {
  await stopAll();
  await daraja?.close();
}
if (args["cpu-prof"]) {
  try {
    printProfile();
    if (args["orders-only"] && fs.existsSync(BASELINE_PROFILE_DIR)) printProfile(BASELINE_PROFILE_DIR, baselineWindow, ` of ${BASELINE}`);
  } catch (e) {
    console.error(`[bench] could not read the CPU profile: ${e instanceof Error ? e.message : e}`);
  }
}
process.exit(exitCode);
