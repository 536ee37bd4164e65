// M-Pesa Express for `npm run bench`: 200 badge orders paid by prompt at once, through the fake
// Daraja (tests/support/daraja-fake.mjs) answering each prompt 'paid' shortly after it was sent.
// Measured: the order POST's p99 (it stores the order, then asks Daraja for the prompt) and that
// every order ends verified once: one paid prompt, one received payment, one receipt link.
import { createRequire } from "node:module";
import { printTable } from "./util.mjs";

const require = createRequire(import.meta.url);
export const STK_ORDERS = 200;

const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.99) - 1)];

function readOutcome(dbPath, ids) {
  const Database = require("better-sqlite3");
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const marks = ids.map(() => "?").join(",");
    const paid = db.prepare(`select count(*) as n from stk_pushes where state = 'paid' and receipt is not null and order_id in (${marks})`).get(...ids).n;
    const links = db.prepare(`select order_id, count(*) as n from order_receipts where order_id in (${marks}) group by order_id`).all(...ids);
    const payments = db.prepare(`select count(*) as n from received_payments where account_ref in (${marks})`).get(...ids).n;
    return { paid, linkedOnce: links.filter((l) => l.n === 1).length, linkedTwice: links.filter((l) => l.n > 1).length, payments };
  } finally {
    db.close();
  }
}

/** `fake` is the running fake Daraja the site's DARAJA_BASE_URL points at. */
export async function ordersPaidByPush(site, fake, budget, n = STK_ORDERS) {
  fake.set({ outcome: "paid", autoAfterMs: 300 });
  const run = Date.now().toString(36).slice(-4);
  const t0 = performance.now();
  const answers = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const started = performance.now();
      const res = await fetch(`${site.origin}/api/badge_orders.php`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tierKey: "t3", name: `Prompt Supporter ${i}`, email: `stk-${run}-${i}@example.org`, phone: `07${String(20000000 + i)}`, payWith: "stk" }),
      });
      const body = await res.json().catch(() => ({}));
      return { status: res.status, id: body.id, stk: body.stk?.state, error: body.error ?? body.stk?.message, ms: performance.now() - started };
    }),
  );
  const posted = performance.now() - t0;
  const refusals = new Map();
  for (const a of answers) if (a.status !== 200 || a.stk !== "sent") refusals.set(`${a.status} ${a.error ?? ""}`.trim(), (refusals.get(`${a.status} ${a.error ?? ""}`.trim()) ?? 0) + 1);
  for (const [why, count] of refusals) console.log(`[bench] ${count} order POST(s) answered ${why}`);
  const ids = answers.filter((a) => a.status === 200 && a.id).map((a) => a.id);
  const sent = answers.filter((a) => a.stk === "sent").length;
  let outcome = readOutcome(site.dbPath, ids);
  const waitUntil = Date.now() + 60_000;
  while (outcome.linkedOnce < ids.length && Date.now() < waitUntil) {
    await new Promise((r) => setTimeout(r, 250));
    outcome = readOutcome(site.dbPath, ids);
  }
  const settled = performance.now() - t0;
  fake.set({ outcome: null });
  const postP99 = p99(answers.map((a) => a.ms));
  console.log(`\n## n. M-Pesa Express: ${n} badge orders paid by prompt at once (fake Daraja answering 'paid' after 300 ms)`);
  printTable(
    ["orders stored", "prompts sent", "paid prompts", "verified (one receipt each)", "linked twice", "payments", "all POSTs ms", "all verified ms", "POST p99 ms"],
    [[String(ids.length), String(sent), String(outcome.paid), String(outcome.linkedOnce), String(outcome.linkedTwice), String(outcome.payments), posted.toFixed(0), settled.toFixed(0), postP99.toFixed(0)]],
  );
  budget("orders paid by prompt, each verified once", ids.length === n && outcome.linkedOnce === n && outcome.linkedTwice === 0 && outcome.payments === n, `${outcome.linkedOnce}/${n}`, `${n}/${n}`);
  // The POST's p99 is a figure, not a budget yet: each answer waits for Daraja's answer to the push.
}
