// Badge order throughput for `npm run bench` (m): POST /api/badge_orders.php under load (50
// connections, a new payment code on every request, no portrait), on this checkout and on an older
// commit (BASELINE, the last one before the speed work) in the same run, one after the other on the
// same machine; the ratio is the figure to read when the machine is shared. Every 2xx answer is
// then looked up in the database: an acknowledged order that is not stored fails the run.
//
// The older commit is unpacked with `git archive` into the system's temporary folder (its
// node_modules links this checkout's packages, so they should be the versions it asks for: checked
// first; a package it asks for that is no longer installed here is installed there,
// tests/bench/baseline-modules.mjs) and built there by its own start script, once; later runs
// reuse that build.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { baselineModules } from "./baseline-modules.mjs";
import { ROOT, startSite } from "./server.mjs";
import { printTable } from "./util.mjs";

const require = createRequire(import.meta.url);

export const BASELINE = "f22739e";
/**
 * What was measured on BASELINE on a quiet machine (50 connections: 511 req/s, p99 178 ms), the
 * rate asked for (`rateShare` times the baseline's: the site needs tens of orders a second, and
 * every request goes through React Router's matching) and the p99 asked for (150 ms). On a
 * machine shared with other work both move a lot, so with the baseline run beside this checkout
 * the budgets are proportions of the baseline's own figures in this run: at least `rateShare`
 * times its rate, and a p99 at most 150/178 of its p99. The absolute figures are printed (with
 * the load average) and are the budget when the baseline cannot run.
 */
export const ORDER_BUDGET = { baselineRps: 511, rateShare: 1.5, baselineP99Ms: 178, p99Ms: 150 };

/** Whether `rps` meets the rate budget: `rateShare` times the baseline's rate in the same run, else times its quiet-machine figure. */
export const meetsOrderRate = (rps, baselineRps = null) => rps >= ORDER_BUDGET.rateShare * (baselineRps ?? ORDER_BUDGET.baselineRps);

/** The baseline's sources in a temporary folder, or a sentence saying why it cannot run. */
export function baselineTree(commit = BASELINE) {
  let sha;
  try {
    sha = execFileSync("git", ["rev-parse", "--verify", `${commit}^{commit}`], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return { error: `commit ${commit} is not in this repository` };
  }
  const dir = path.join(os.tmpdir(), `site-commit-${sha.slice(0, 12)}`);
  if (!fs.existsSync(path.join(dir, "package.json"))) {
    const part = `${dir}.part-${process.pid}`;
    fs.rmSync(part, { recursive: true, force: true });
    fs.mkdirSync(part, { recursive: true });
    execFileSync("sh", ["-c", `git archive ${sha} | tar -x -C "${part}"`], { cwd: ROOT });
    try {
      fs.renameSync(part, dir);
    } catch {
      fs.rmSync(part, { recursive: true, force: true }); // another bench unpacked it first
    }
  }
  let installed;
  try {
    installed = baselineModules(dir, ROOT);
  } catch (e) {
    return { error: `its dependencies could not be installed: ${e instanceof Error ? e.message.split("\n")[0] : e}` };
  }
  // Its dependencies must be the installed ones (same versions), or the comparison is not fair.
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const wanted = { ...pkg.dependencies, ...pkg.devDependencies };
  const differ = [];
  for (const [name, version] of Object.entries(wanted)) {
    let have;
    try {
      have = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")).version;
    } catch {
      have = "missing";
    }
    if (have !== version && !installed.includes(`${name}@${version}`)) differ.push(`${name} ${version} (installed: ${have})`);
  }
  return { dir, sha, differ };
}

/**
 * One run of POST /api/badge_orders.php at `connections` for `duration` seconds; then every 2xx
 * order id is looked up in the site's database.
 */
export async function orderLoad(site, { connections, duration, warmup = 2 }) {
  const run = Math.random().toString(36).slice(2, 6).toUpperCase().padEnd(4, "X");
  let built = 0;
  const acknowledged = new Set();
  const statuses = new Map();
  let firstBad;
  const body = (n) => {
    const code = `O${run}${n.toString(36).toUpperCase().padStart(5, "0")}`;
    return JSON.stringify({
      tierKey: `t${(n % 5) + 1}`,
      name: `Order Load ${n}`,
      email: `order-${run.toLowerCase()}-${n}@example.org`,
      paymentReference: code,
    });
  };
  const request = {
    method: "POST",
    path: "/api/badge_orders.php",
    headers: { "content-type": "application/json" },
    setupRequest(req) {
      req.body = body(++built);
      return req;
    },
    onResponse(status, text) {
      if (status >= 200 && status < 300) {
        try {
          const id = JSON.parse(String(text)).id;
          if (id) acknowledged.add(id);
        } catch {}
      } else {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        firstBad ??= `${status} ${String(text ?? "").slice(0, 200)}`;
      }
    },
  };
  const cannon = (opts) =>
    new Promise((resolve, reject) => autocannon({ timeout: 10, url: site.origin, ...opts }, (e, r) => (e ? reject(e) : resolve(r))));
  if (warmup > 0) await cannon({ connections: Math.min(10, connections), duration: warmup, requests: [request] });
  acknowledged.clear();
  const cpu0 = cpuMs(site.pid);
  const r = await cannon({ connections, duration, requests: [request] });
  const cpu1 = cpuMs(site.pid);

  // Orders in flight at the stop may still be written: let the count settle (bounded).
  const Database = require("better-sqlite3");
  const storedIds = () => {
    const db = new Database(site.dbPath, { readonly: true, fileMustExist: true });
    try {
      return new Set(
        db.prepare("select id from badge_orders where payment_reference like ?").all(`O${run}%`).map((x) => x.id),
      );
    } finally {
      db.close();
    }
  };
  let stored = storedIds();
  for (let i = 0; i < 20; i++) {
    await new Promise((res) => setTimeout(res, 250));
    const next = storedIds();
    const still = next.size === stored.size;
    stored = next;
    if (still) break;
  }
  const lost = [...acknowledged].filter((id) => !stored.has(id));
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r["2xx"],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    acknowledged: acknowledged.size,
    lost: lost.length,
    statuses,
    firstBad,
    cpuPerReq: cpu0 === null || cpu1 === null || !r.requests.total ? null : (cpu1 - cpu0) / r.requests.total,
  };
}

/** CPU ms (user + system) of the site's process group: start.mjs and its server process. */
function cpuMs(pid) {
  try {
    let total = 0;
    for (const p of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(p)) continue;
      let stat;
      try {
        stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      } catch {
        continue;
      }
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // f[2] = pgrp (field 5); the site runs detached, its group id is its pid.
      if (Number(f[2]) !== pid) continue;
      total += ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    }
    return total;
  } catch {
    return null;
  }
}

const row = (label, r) => [
  label,
  r.rps.toFixed(0),
  String(r.p50),
  String(r.p99),
  String(r.ok),
  String(r.non2xx),
  String(r.errors + r.timeouts),
  r.cpuPerReq === null ? "-" : r.cpuPerReq.toFixed(2),
  `${r.acknowledged - r.lost} of ${r.acknowledged}`,
];

/**
 * m. The same order load on BASELINE and on this checkout, `rounds` times each (alternating,
 * baseline first); prints every run, the best of each and the ratio; budgets: at least 1.5x the
 * baseline's rate, p99 at most 150/178 of its p99, every acknowledged order stored.
 * `site` is this checkout's running site; `profile` adds node args to the baseline's server.
 */
export async function orderComparison(site, budget, { connections, duration, rounds = 1, baselineNodeArgs = [], onRun, startFresh }) {
  console.log(`\n## m. Badge orders under load: POST /api/badge_orders.php, ${connections} connections, ${duration} s, a new payment code each, no portrait`);
  const tree = baselineTree();
  let old = null;
  if (tree.error) console.log(`baseline ${BASELINE} cannot run: ${tree.error}`);
  else {
    if (tree.differ.length) {
      console.log(`note: ${BASELINE} asks for other dependency versions than installed: ${tree.differ.join(", ")}`);
    }
    try {
      old = await startSite({ label: `orders-${BASELINE}`, cwd: tree.dir, nodeArgs: baselineNodeArgs });
    } catch (e) {
      console.log(`baseline ${BASELINE} did not start: ${e instanceof Error ? e.message.split("\n")[0] : e}`);
    }
  }
  // Like for like: f22739e starts on an empty database, so this checkout does too when `site`
  // has already served the bench's other sections (its orders, payments, statement and mail).
  const loaded = startFresh ? site : null;
  const ours = startFresh ? await startFresh() : site;
  const runs = [];
  const [l1, l5] = os.loadavg();
  console.log(`load average before: ${l1.toFixed(2)} (1 min), ${l5.toFixed(2)} (5 min) on ${os.cpus().length} cores`);
  try {
    for (let i = 0; i < rounds; i++) {
      if (old) {
        onRun?.("baseline", "start");
        runs.push([`${BASELINE} (before)`, await orderLoad(old, { connections, duration }), "old"]);
        onRun?.("baseline", "end");
      }
      onRun?.("new", "start");
      runs.push(["this checkout", await orderLoad(ours, { connections, duration }), "new"]);
      onRun?.("new", "end");
    }
    // Said, not budgeted: the same load on the site the other sections filled.
    if (loaded) runs.push(["this checkout, after the other sections", await orderLoad(loaded, { connections, duration }), "loaded"]);
  } finally {
    await old?.stop();
    if (loaded) await ours.stop();
  }
  printTable(
    ["run", "req/s", "p50 ms", "p99 ms", "2xx", "non-2xx", "errors", "server CPU ms/order", "2xx orders stored"],
    runs.map(([label, r]) => row(label, r)),
  );
  console.log(`load average after: ${os.loadavg()[0].toFixed(2)} (1 min)`);
  for (const [label, r] of runs) {
    if (r.firstBad) console.log(`${label}: first non-2xx ${r.firstBad}; by status ${[...r.statuses].map(([s, n]) => `${s}: ${n}`).join(", ")}`);
  }
  const best = (kind) => runs.filter((x) => x[2] === kind).map((x) => x[1]).sort((a, b) => b.rps - a.rps)[0];
  const now = best("new");
  const before = best("old");
  if (before) {
    console.log(
      `ratio this checkout / ${BASELINE}: ${(now.rps / before.rps).toFixed(2)}x req/s, p99 ${now.p99} ms vs ${before.p99} ms ` +
        `(best run of each; the issue measured ${ORDER_BUDGET.baselineRps} req/s on ${BASELINE} on its machine)`,
    );
  }
  const share = ORDER_BUDGET.rateShare;
  const floorRps = Math.round(share * ORDER_BUDGET.baselineRps);
  budget(
    before ? `order POST: req/s >= ${share.toFixed(2)} x ${BASELINE}'s in the same run` : `order POST: req/s >= ${floorRps}`,
    meetsOrderRate(now.rps, before ? before.rps : null),
    before
      ? `${now.rps.toFixed(0)} vs ${before.rps.toFixed(0)} req/s (${(now.rps / before.rps).toFixed(2)}x)`
      : `${now.rps.toFixed(0)} req/s (baseline not run)`,
    before ? `>= ${share.toFixed(2)}x (${floorRps} req/s where ${BASELINE} had ${ORDER_BUDGET.baselineRps})` : `>= ${floorRps}`,
  );
  const p99Share = ORDER_BUDGET.p99Ms / ORDER_BUDGET.baselineP99Ms;
  budget(
    before ? `order POST: p99 <= ${p99Share.toFixed(2)} x ${BASELINE}'s in the same run` : "order POST: p99",
    before ? now.p99 <= before.p99 * p99Share : now.p99 <= ORDER_BUDGET.p99Ms,
    before ? `${now.p99} vs ${before.p99} ms (${(now.p99 / before.p99).toFixed(2)}x)` : `${now.p99} ms`,
    before ? `<= ${p99Share.toFixed(2)}x (${ORDER_BUDGET.p99Ms} ms where ${BASELINE} had ${ORDER_BUDGET.baselineP99Ms})` : `<= ${ORDER_BUDGET.p99Ms} ms`,
  );
  if (before) {
    console.log(
      `absolute: ${now.rps.toFixed(0)} req/s, p99 ${now.p99} ms (asked on a quiet machine: >= ${floorRps} req/s, p99 <= ${ORDER_BUDGET.p99Ms} ms; ` +
        `load average now ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores)`,
    );
  }
  const lost = runs.filter((x) => x[2] !== "old").reduce((n, x) => n + x[1].lost, 0);
  const non2xx = runs.filter((x) => x[2] !== "old").reduce((n, x) => n + x[1].non2xx + x[1].errors, 0);
  budget("order POST: every 2xx order stored, no non-2xx", lost === 0 && non2xx === 0, `${lost} lost, ${non2xx} non-2xx/errors`, "0");
  return { runs, now, before };
}
