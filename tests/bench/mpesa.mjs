// M-Pesa reconciliation measurements for `npm run bench` (issue budgets: a Daraja confirmation
// callback acknowledged in under 50 ms p99 with 50 at once, 1,000 callbacks arriving twice each
// store 1,000 payments; a 20,000-row statement previewed and imported in under 3 s).
import { createRequire } from "node:module";
import autocannon from "autocannon";
import { printTable } from "./util.mjs";

const require = createRequire(import.meta.url);
export const CALLBACK_P99_MS = 50;
export const STATEMENT_MS = 3000;


/** Ten upper-case letters and digits: a 4-character run tag and a 6-digit index. */
const codeFor = (run, i) => `${run}${String(i).padStart(6, "0")}`;
const runTag = (letter) => `${letter}${Date.now().toString(36).toUpperCase().slice(-3)}`;

const nairobi = (d) => new Date(d.getTime() + 3 * 3_600_000).toISOString();

function countPayments(site, codes) {
  const Database = require("better-sqlite3");
  const db = new Database(site.dbPath, { readonly: true, fileMustExist: true });
  try {
    let n = 0;
    for (let i = 0; i < codes.length; i += 500) {
      const part = codes.slice(i, i + 500);
      n += db.prepare(`select count(*) as n from received_payments where code in (${part.map(() => "?").join(",")})`).get(...part).n;
    }
    return n;
  } finally {
    db.close();
  }
}

export const darajaBody = (TransID, at, i) =>
  JSON.stringify({
    TransactionType: "Pay Bill",
    TransID,
    TransTime: at,
    TransAmount: `${300 + (i % 5) * 100}.00`,
    BusinessShortCode: "880100",
    BillRefNumber: "VESPERS",
    InvoiceNumber: "",
    OrgAccountBalance: "",
    ThirdPartyTransID: "",
    MSISDN: "254712345678",
    FirstName: "BENCH",
    MiddleName: "",
    LastName: `PAYER ${i}`,
  });

/** One autocannon run of POSTs whose bodies `bodyAt(n)` gives, counting the 'Accepted' answers. */
async function postRun(url, opts, bodyAt) {
  let next = 0;
  let accepted = 0;
  const t0 = performance.now();
  const result = await new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        timeout: 10,
        ...opts,
        requests: [
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            setupRequest: (req) => ({ ...req, body: bodyAt(next++) }),
            onResponse: (status, body) => {
              if (status === 200 && body.includes('"ResultCode":0')) accepted++;
            },
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
  const wall = performance.now() - t0;
  const sent = result.requests.total;
  return { result, accepted, sent, rate: (sent / wall) * 1000 };
}

/**
 * Daraja confirmations, every payment confirmed twice (as Safaricom retries), 50 in flight:
 * (1) 1,000 payments x 2 all stored once; (2) the acknowledgement time over 10 s of such
 * traffic after a 2 s warm-up, measured as GET / is (a burst of 2,000 on 50 new connections is
 * mostly connection set-up, which Safaricom's own connection pool does not pay per callback).
 */
export async function callbacks(site, budget, { payments = 1000, concurrency = 50, duration = 10 } = {}) {
  const url = `${site.origin}/api/mpesa/c2b/confirmation/${site.mpesaSecret}`;
  const at = nairobi(new Date()).replace(/[-:T]/g, "").slice(0, 14);
  // Payment n/2, twice in a row apart: n = 2k and 2k + 1 confirm the same payment k.
  const twice = (run) => (n) => darajaBody(codeFor(run, Math.floor(n / 2) % 1_000_000), at, n);

  const run = runTag("C");
  const codes = Array.from({ length: payments }, (_, i) => codeFor(run, i));
  // Interleaved: a payment's second callback comes while others are still arriving.
  const burst = await postRun(url, { connections: concurrency, amount: payments * 2 }, twice(run));
  const stored = countPayments(site, codes);

  await postRun(url, { connections: concurrency, duration: 2 }, twice(runTag("W")));
  const steady = await postRun(url, { connections: concurrency, duration }, twice(runTag("L")));
  const row = (label, r) => [label, String(r.sent), String(r.accepted), r.result.latency.p50.toFixed(1), r.result.latency.p99.toFixed(1), r.result.latency.max.toFixed(1), r.rate.toFixed(0)];
  console.log(`\n## i. Daraja C2B confirmations (each payment confirmed twice, ${concurrency} at once)`);
  printTable(
    ["run", "callbacks", "accepted", "p50 ms", "p99 ms", "max ms", "req/s"],
    [row(`${payments} payments x 2 (burst)`, burst), row(`${duration} s after a 2 s warm-up`, steady)],
  );
  console.log(`payments stored by the burst: ${stored} of ${payments}`);
  const p99 = steady.result.latency.p99;
  const ok = steady.accepted === steady.sent && steady.result.non2xx === 0;
  budget(`callback p99 (${concurrency} at once, ${duration} s)`, p99 < CALLBACK_P99_MS && ok, `${p99.toFixed(1)} ms, ${steady.sent - steady.accepted} not accepted`, `< ${CALLBACK_P99_MS} ms, all accepted`);
  budget(`${payments} callbacks twice -> payments stored`, stored === payments && burst.accepted === payments * 2, `${stored} (${burst.accepted} accepted)`, `= ${payments}`);
}

/** A statement as the M-PESA portal exports it: title lines, then `rows` completed payments. */
export function buildStatement(rows, run = runTag("S")) {
  const header =
    "Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Balance Confirmed,Reason Type,Other Party Info,Linked Transaction ID,A/C No.";
  const lines = ["Street Light Outreach", "Short Code,880100", "Statement period,last month", "", header];
  const start = Date.now() - 30 * 86_400_000;
  for (let i = 0; i < rows; i++) {
    const when = nairobi(new Date(start + i * 60_000)).replace("T", " ").slice(0, 19);
    const amount = (300 + (i % 50) * 100).toLocaleString("en-US");
    lines.push(`${codeFor(run, i)},${when},${when},Pay Bill from 2547******${String(i % 1000).padStart(3, "0")},Completed,"${amount}.00",,,true,Pay Bill Online,2547******${String(i % 1000).padStart(3, "0")} - PAYER ${i},,VESPERS`);
  }
  return { csv: lines.join("\n"), codes: Array.from({ length: rows }, (_, i) => codeFor(run, i)) };
}

/** A 20,000-row statement through POST /api/mpesa_statements.php: the preview, then the import. */
export async function statementImport(site, budget, rows = 20_000) {
  const { csv, codes } = buildStatement(rows);
  const send = async (dryRun) => {
    const t0 = performance.now();
    const res = await fetch(`${site.origin}/api/mpesa_statements.php${dryRun ? "?dryRun=1" : ""}`, {
      method: "POST",
      headers: { "content-type": "text/csv", "X-Admin-Key": site.adminKey },
      body: csv,
    });
    const body = await res.json();
    const ms = performance.now() - t0;
    if (res.status !== 200 || body.ok !== true) throw new Error(`statement ${dryRun ? "preview" : "import"} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return { ms, body };
  };
  const preview = await send(true);
  const imported = await send(false);
  const stored = countPayments(site, codes);
  const total = preview.ms + imported.ms;
  console.log(`\n## j. Statement import (${rows.toLocaleString("en-US")} rows, ${(csv.length / 1e6).toFixed(1)} MB CSV)`);
  printTable(
    ["step", "ms", "rows", "added", "known", "skipped"],
    [
      ["preview (?dryRun=1)", preview.ms.toFixed(0), String(preview.body.rows), String(preview.body.added), String(preview.body.known), String(preview.body.skipped)],
      ["import", imported.ms.toFixed(0), String(imported.body.rows), String(imported.body.added), String(imported.body.known), String(imported.body.skipped)],
    ],
  );
  budget(`${rows}-row statement: preview + import`, total < STATEMENT_MS && stored === rows, `${total.toFixed(0)} ms (${stored} stored)`, `< ${STATEMENT_MS} ms, all stored`);
}
