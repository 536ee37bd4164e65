// Store measurements for `npm run bench`: 200 orders placed at once through
// POST /api/merch_orders.php, each stored with the total the server computes.
import { createRequire } from "node:module";
import { printTable } from "./util.mjs";

const require = createRequire(import.meta.url);
export const CONCURRENT_MERCH_ORDERS = 200;

export async function concurrentMerchOrders(site, budget, n = CONCURRENT_MERCH_ORDERS) {
  const catalogue = await (await fetch(`${site.origin}/data/merch.json`)).json();
  const buyable = catalogue.filter((i) => i.available);
  if (buyable.length === 0) throw new Error("no available merch items to order");
  const run = Date.now().toString(36).toUpperCase().slice(-4);
  const orders = Array.from({ length: n }, (_, i) => {
    const item = buyable[i % buyable.length];
    const quantity = (i % 3) + 1;
    const line = { itemId: item.id, quantity, price: 1, color: item.colors[0]?.label ?? null, size: item.sizes[0] ?? null };
    return {
      paymentReference: `M${run}${String(i).padStart(5, "0")}`.padEnd(10, "K").slice(0, 10),
      expected: item.price * quantity,
      body: {
        customerName: `Load Customer ${i}`,
        customerEmail: `merch-load-${run.toLowerCase()}-${i}@example.org`,
        customerPhone: "",
        notes: "",
        total: 1,
        currency: item.currency,
        items: [line],
      },
    };
  });
  const t0 = performance.now();
  const answers = await Promise.all(
    orders.map(async (o) => {
      const res = await fetch(`${site.origin}/api/merch_orders.php`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...o.body, paymentReference: o.paymentReference }),
      });
      const body = await res.json().catch(() => ({}));
      return { ok: body.ok === true, id: body.id };
    }),
  );
  const ms = performance.now() - t0;
  const acked = answers.filter((a) => a.ok).length;
  const Database = require("better-sqlite3");
  const db = new Database(site.dbPath, { readonly: true, fileMustExist: true });
  let stored = 0;
  let rightTotal = 0;
  try {
    const stmt = db.prepare("select total from merch_orders where payment_reference = ?");
    for (const o of orders) {
      const row = stmt.get(o.paymentReference);
      if (!row) continue;
      stored++;
      if (row.total === o.expected) rightTotal++;
    }
  } finally {
    db.close();
  }
  console.log(`\n## g. ${n} concurrent merch orders (POST /api/merch_orders.php; each sends a wrong total of 1)`);
  printTable(
    ["sent", "answered ok", "stored", "total = catalogue price x qty", "wall ms"],
    [[String(n), String(acked), String(stored), String(rightTotal), ms.toFixed(0)]],
  );
  budget(
    `${n} concurrent merch orders stored with correct totals`,
    acked === n && stored === n && rightTotal === n,
    `${acked} ok, ${stored} stored, ${rightTotal} right totals`,
    `${n} of ${n}`,
  );
}
