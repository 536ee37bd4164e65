// `npm run bench:postgres`: one server process against two (WORKERS=2) on PostgreSQL, with the
// same load on each: 400 badge orders at once (POST /api/badge_orders.php, distinct codes) and
// GET /blogs under autocannon. A throwaway cluster with fsync on (tests/support/postgres.mjs),
// or TEST_DATABASE_URL; a new database per run. Load tool, servers and PostgreSQL share the
// machine's cores: the figures compare the two set-ups on this machine, nothing more.
//
//   node tests/bench/postgres.mjs [--connections 50] [--duration 10] [--orders 400]
import crypto from "node:crypto";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { startTestPostgres } from "../support/postgres.mjs";
import { startSite, stopAll } from "./server.mjs";
import { positiveInt, printTable } from "./util.mjs";

const { values: args } = parseArgs({
  options: {
    connections: { type: "string", default: "50" },
    duration: { type: "string", default: "10" },
    orders: { type: "string", default: "400" },
  },
});
const connections = positiveInt("--connections", args.connections);
const duration = positiveInt("--duration", args.duration);
const orders = positiveInt("--orders", args.orders);

const server = await startTestPostgres({ durable: true });
if (!server.url) {
  console.error(`[bench] PostgreSQL is not available: ${server.reason}`);
  process.exit(2);
}
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();

async function burst(origin, run) {
  const t0 = performance.now();
  const answers = await Promise.all(
    Array.from({ length: orders }, async (_, i) => {
      const res = await fetch(`${origin}/api/badge_orders.php`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tierKey: "t2", name: `Bench Supporter ${i}`, email: `pg-${run}-${i}@example.org`, paymentReference: `P${run}${String(i).padStart(5, "0")}`.slice(0, 10) }),
      }).catch(() => null);
      return res?.status ?? 0;
    }),
  );
  const statuses = {};
  for (const s of answers) statuses[s] = (statuses[s] ?? 0) + 1;
  return { ms: performance.now() - t0, ok: answers.filter((s) => s === 200).length, statuses };
}

function load(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, timeout: 10 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

const rows = [];
try {
  for (const workers of [1, 2]) {
    const name = `site_bench_${workers}_${crypto.randomBytes(3).toString("hex")}`;
    await admin.query(`create database ${name}`);
    const u = new URL(server.url);
    u.pathname = `/${name}`;
    const site = await startSite({ label: `pg-w${workers}`, inPlace: true, env: { DATABASE_URL: u.toString(), WORKERS: String(workers) } });
    try {
      await fetch(`${site.origin}/blogs`); // warm
      await new Promise((r) => setTimeout(r, workers === 2 ? 3000 : 500)); // the second process up
      // The page load first: the burst's connections stay open (keep-alive) a while afterwards
      // and count against the per-address connection cap.
      const g = await load(`${site.origin}/blogs`);
      const codes = Object.entries(g.statusCodeStats ?? {}).map(([k, v]) => `${k}:${v.count}`).join(" ");
      const run = crypto.randomBytes(2).toString("hex").toUpperCase();
      const b = await burst(site.origin, run);
      const db = new pg.Client({ connectionString: u.toString() });
      await db.connect();
      const stored = (await db.query("select count(*)::int as n from badge_orders")).rows[0].n;
      await db.end();
      rows.push([
        String(workers),
        `${b.ok}/${orders}`,
        JSON.stringify(b.statuses),
        String(stored),
        b.ms.toFixed(0),
        g.requests.average.toFixed(0),
        String(g.latency.p50),
        String(g.latency.p99),
        `${g.non2xx} (${codes})`,
      ]);
    } finally {
      await site.stop();
      await admin.query(`drop database if exists ${name} with (force)`);
    }
  }
} finally {
  await admin.end();
  server.stop();
  await stopAll();
}
console.log(`\n## PostgreSQL: 1 vs 2 server processes (${orders} orders at once; GET /blogs, ${connections} connections, ${duration} s)`);
printTable(["WORKERS", "orders 200", "answers by status", "stored", "burst wall ms", "GET /blogs req/s", "p50 ms", "p99 ms", "non-2xx"], rows);
