// Door check-in measurements for `npm run bench` (issue budget: 500 check-ins through
// POST /api/checkin.php in under 10 s in total, p99 under 50 ms), with several door phones at once.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { printTable } from "./util.mjs";

const require = createRequire(import.meta.url);
export const CHECKINS = 500;
export const CHECKIN_TOTAL_MS = 10_000;
export const CHECKIN_P99_MS = 50;
/** Door phones scanning at the same time (a venue entrance with a few staff phones; BENCH_DOORS to change). */
const DOORS = Number(process.env.BENCH_DOORS ?? 4);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** 500 approved supporters, written straight into the bench site's database (the setup, not what is measured). */
function approvedSupporters(site, run) {
  const Database = require("better-sqlite3");
  const db = new Database(site.dbPath, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  const ids = [];
  try {
    const now = new Date().toISOString();
    const insert = db.prepare(`insert into badge_orders (id, tier_key, tier_name, amount, name, email, phone, payment_reference, hard_copy, notes,
      share_url, status, created_at, approved_at, rejected_at, portrait_file, badge_file, poster_file, asset_token, delivery_outbox_id, staff_note,
      wall_opt_in, wall_name, wall_portrait, wall_hidden, wall_key, checked_in_at, reminder_for)
      values (?, 't3', 'Big Friend', 1300, ?, ?, '', ?, 0, '', '', 'approved', ?, ?, null, null, null, null, ?, null, '', 0, '', 0, 0, null, null, null)`);
    db.transaction(() => {
      for (let i = 0; i < CHECKINS; i++) {
        const id = `BO-${run}${String(i).padStart(3, "0")}`;
        insert.run(id, `Door Bench ${i}`, `door-${i}@example.org`, `D${run}${String(i).padStart(6, "0")}`, now, now, crypto.randomBytes(16).toString("hex"));
        ids.push(id);
      }
    })();
    return ids;
  } finally {
    db.close();
  }
}

const checkedIn = (site, ids) => {
  const Database = require("better-sqlite3");
  const db = new Database(site.dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(`select count(*) as n from badge_orders where checked_in_at is not null and id in (${ids.map(() => "?").join(",")})`).get(...ids).n;
  } finally {
    db.close();
  }
};

export async function doorCheckIns(site, budget) {
  const url = `${site.origin}/api/checkin.php`;
  const headers = { "content-type": "application/json", "x-admin-key": site.adminKey };
  // A forged ticket first: refused (404), and it makes the site's ticket key if none exists yet.
  const forged = await fetch(url, { method: "POST", headers, body: JSON.stringify({ token: `BO-000000.${"A".repeat(22)}` }) });
  if (forged.status !== 404) throw new Error(`a forged ticket answered ${forged.status}`);
  const run = crypto.randomBytes(2).toString("hex").toUpperCase().replace(/[^0-9A-Z]/g, "0").slice(0, 3);
  const ids = approvedSupporters(site, run);
  const secret = fs.readFileSync(path.join(site.dataDir, "session-secret"), "utf8").trim();
  const ticket = (id) => `${id}.${crypto.createHmac("sha256", secret).update(`entry-ticket:${id}`).digest("base64url").slice(0, 22)}`;

  const times = [];
  let ok = 0;
  let next = 0;
  const t0 = performance.now();
  const door = async () => {
    for (;;) {
      const i = next++;
      if (i >= ids.length) return;
      const s = performance.now();
      const res = await fetch(url, { method: "POST", headers, body: JSON.stringify({ token: ticket(ids[i]) }) });
      const body = await res.json();
      times.push(performance.now() - s);
      if (res.status === 200 && body.ok === true && body.already === false && body.order?.id === ids[i]) ok++;
    }
  };
  await Promise.all(Array.from({ length: DOORS }, door));
  const total = performance.now() - t0;
  times.sort((a, b) => a - b);
  const p50 = quantile(times, 0.5);
  const p99 = quantile(times, 0.99);
  const stored = checkedIn(site, ids);
  console.log(`\n## l. Door check-in (${CHECKINS} signed tickets through POST /api/checkin.php, ${DOORS} door phones at once)`);
  printTable(
    ["check-ins", "first-time answers", "stored", "total ms", "p50 ms", "p99 ms", "max ms"],
    [[String(CHECKINS), String(ok), String(stored), total.toFixed(0), p50.toFixed(1), p99.toFixed(1), times.at(-1).toFixed(1)]],
  );
  budget(`${CHECKINS} check-ins (total)`, total < CHECKIN_TOTAL_MS && ok === CHECKINS && stored === CHECKINS, `${total.toFixed(0)} ms, ${stored} stored`, `< ${CHECKIN_TOTAL_MS} ms, all ${CHECKINS}`);
  budget("check-in p99", p99 < CHECKIN_P99_MS, `${p99.toFixed(1)} ms`, `< ${CHECKIN_P99_MS} ms`);
}
