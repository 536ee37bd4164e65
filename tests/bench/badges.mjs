// Badge programme measurements for `npm run bench` (issue budgets: one kit, badge + poster,
// under 300 ms; 200 concurrent order submissions all stored).
import { createRequire } from "node:module";
import { printTable } from "./util.mjs";

const require = createRequire(import.meta.url);
export const KIT_BUDGET_MS = 300;
export const CONCURRENT_ORDERS = 200;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/**
 * Badge + poster, rendered by the same server renderer staff use, fetched one after the other
 * through /event/previews/image.png with a new name each time (so no cache can answer).
 */
export async function kitTiming(site, budget, runs = 10) {
  const one = async (kind, name) => {
    const q = new URLSearchParams({ kind, tier: "t3", name, share: `${site.origin}/event?utm_source=share` });
    const t0 = performance.now();
    const res = await fetch(`${site.origin}/event/previews/image.png?${q}`);
    const bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200 || bytes < 1000) throw new Error(`preview ${kind} answered ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 3; i++) await one(i % 2 ? "badge" : "poster", `Warm Up ${i}`);
  const kits = [];
  for (let i = 0; i < runs; i++) {
    const name = `Bench Supporter ${i} ${Date.now().toString(36)}`;
    kits.push((await one("badge", name)) + (await one("poster", name)));
  }
  const med = median(kits);
  console.log(`\n## e. Badge kit render (badge + poster, 1080x1080 PNG each, ${runs} kits after 3 warm-up images)`);
  printTable(
    ["kits", "median ms", "min ms", "max ms"],
    [[String(runs), med.toFixed(0), Math.min(...kits).toFixed(0), Math.max(...kits).toFixed(0)]],
  );
  budget("badge kit render (median)", med < KIT_BUDGET_MS, `${med.toFixed(0)} ms`, `< ${KIT_BUDGET_MS} ms`);
}

/** 200 confirmations at once through POST /api/badge_orders.php, each with its own code. */
export async function concurrentOrders(site, budget, n = CONCURRENT_ORDERS) {
  const run = Date.now().toString(36).toUpperCase().slice(-4);
  const codes = Array.from({ length: n }, (_, i) => `Q${run}${String(i).padStart(4, "0")}`.padEnd(10, "Z").slice(0, 10));
  const t0 = performance.now();
  const answers = await Promise.all(
    codes.map(async (paymentReference, i) => {
      const res = await fetch(`${site.origin}/api/badge_orders.php`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          tierKey: `t${(i % 5) + 1}`,
          name: `Load Supporter ${i}`,
          email: `load-${run.toLowerCase()}-${i}@example.org`,
          paymentReference,
        }),
      });
      const body = await res.json().catch(() => ({}));
      return { status: res.status, ok: body.ok === true, id: body.id };
    }),
  );
  const ms = performance.now() - t0;
  const okIds = new Set(answers.filter((a) => a.ok).map((a) => a.id));
  const Database = require("better-sqlite3");
  const db = new Database(site.dbPath, { readonly: true, fileMustExist: true });
  let stored;
  try {
    const rows = db
      .prepare(`select id, amount, tier_key from badge_orders where payment_reference in (${codes.map(() => "?").join(",")})`)
      .all(...codes);
    const amounts = { t1: 300, t2: 500, t3: 1300, t4: 2100, t5: 3400 };
    stored = { rows: rows.length, matching: rows.filter((r) => okIds.has(r.id)).length, rightAmount: rows.filter((r) => amounts[r.tier_key] === r.amount).length };
  } finally {
    db.close();
  }
  console.log(`\n## f. ${n} concurrent badge orders (POST /api/badge_orders.php, all sent at once)`);
  printTable(
    ["sent", "answered ok", "other answers", "stored rows", "stored = acknowledged", "amount from tier table", "wall ms"],
    [[String(n), String(okIds.size), String(n - okIds.size), String(stored.rows), String(stored.matching), String(stored.rightAmount), ms.toFixed(0)]],
  );
  budget(
    `${n} concurrent orders all stored`,
    okIds.size === n && stored.rows === n && stored.matching === n,
    `${okIds.size} ok, ${stored.rows} stored`,
    `${n} of ${n}`,
  );
}
