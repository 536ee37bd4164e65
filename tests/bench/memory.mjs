// Memory for a 1 GB server (`npm run bench`, section n; alone: `--memory-only`): the resident
// memory (RSS) of the supervisor (app/server/start.mjs) and of its server process, idle after
// start-up and the kit warm-up, at its peak during a minute of mixed load (pages, badge orders,
// Daraja confirmations, one kit image a second), and a little after. RSS is read from /proc
// (VmRSS, and VmHWM for the peak between samples), so it is the kernel's figure, not V8's.
import fs from "node:fs";
import { darajaBody } from "./mpesa.mjs";
import { printTable } from "./util.mjs";

export const MEMORY_BUDGET_MB = { workerIdle: 180, workerPeak: 300, supervisor: 60 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** { rss, hwm } in MB for a pid from /proc/<pid>/status, or null when it is gone. */
function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

/** The server process under the supervisor (its node:cluster worker). */
function workerOf(supervisorPid) {
  try {
    const children = fs.readFileSync(`/proc/${supervisorPid}/task/${supervisorPid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return Number(children[0]) || null;
  } catch {
    return null;
  }
}

export async function memoryUnderLoad(site, budget, { seconds = 60, settleSeconds = 8 } = {}) {
  if (!fs.existsSync(`/proc/${site.pid}/status`)) {
    console.log("\n## n. Memory: SKIPPED (no /proc here)");
    return;
  }
  // The kit warm-up starts 250 ms after the server listens and takes a few seconds.
  let worker = null;
  for (let i = 0; i < 40 && !worker; i++) {
    worker = workerOf(site.pid);
    if (!worker) await sleep(250);
  }
  if (!worker) throw new Error("memory: no server process under the supervisor");
  await sleep(settleSeconds * 1000);
  const idle = { worker: memoryOf(worker).rss, supervisor: memoryOf(site.pid).rss };

  const run = Date.now().toString(36).toUpperCase().slice(-4);
  const until = Date.now() + seconds * 1000;
  let peak = idle.worker;
  let supervisorPeak = idle.supervisor;
  const counts = { pages: 0, orders: 0, callbacks: 0, kits: 0, shed: 0, errors: 0 };
  const ok = async (kind, res) => {
    await res.arrayBuffer();
    // 503: the server putting work off while its event loop lags (overload.ts), by design.
    if (res.status === 503) counts.shed++;
    else if (res.status >= 500) counts.errors++;
    else counts[kind]++;
  };
  const loop = async (fn, pauseMs) => {
    for (let i = 0; Date.now() < until; i++) {
      await fn(i).catch(() => counts.errors++);
      if (pauseMs) await sleep(pauseMs);
    }
  };
  const pages = ["/", "/event", "/blogs", "/store", "/about", "/join", "/event/wall"];
  const sampler = (async () => {
    while (Date.now() < until) {
      const w = memoryOf(worker);
      const s = memoryOf(site.pid);
      if (w) peak = Math.max(peak, w.rss, w.hwm);
      if (s) supervisorPeak = Math.max(supervisorPeak, s.rss);
      await sleep(250);
    }
  })();
  await Promise.all([
    sampler,
    // Pages: four readers at once, each with a new address as a first visit.
    ...Array.from({ length: 4 }, (_, r) =>
      loop((i) => fetch(`${site.origin}${pages[(i + r) % pages.length]}`).then((res) => ok("pages", res)), 0),
    ),
    // Badge orders: about five a second, some with a 720 px photo as a phone would send.
    loop(
      (i) =>
        fetch(`${site.origin}/api/badge_orders.php`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            tierKey: `t${(i % 5) + 1}`,
            name: `Memory Supporter ${i}`,
            email: `memory-${run.toLowerCase()}-${i}@example.org`,
            paymentReference: `M${run}${String(i).padStart(5, "0")}`.slice(0, 10),
          }),
        }).then((res) => ok("orders", res)),
      200,
    ),
    // Daraja confirmations: about five a second.
    loop(
      (i) =>
        fetch(`${site.origin}/api/mpesa/c2b/confirmation/${site.mpesaSecret}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: darajaBody(`N${run}${String(i).padStart(5, "0")}`.slice(0, 10), "20261129120000", i),
        }).then((res) => ok("callbacks", res)),
      200,
    ),
    // One kit image a second (badge and poster in turn), each a new name so none is cached.
    loop((i) => {
      const q = new URLSearchParams({ kind: i % 2 ? "poster" : "badge", tier: `t${(i % 5) + 1}`, name: `Memory Kit ${run} ${i}`, share: `${site.origin}/event` });
      return fetch(`${site.origin}/event/previews/image.png?${q}`).then((res) => ok("kits", res));
    }, 1000),
  ]);
  const end = memoryOf(worker);
  if (end) peak = Math.max(peak, end.hwm);
  await sleep(10_000);
  const after = memoryOf(worker)?.rss ?? NaN;
  const f = (mb) => `${mb.toFixed(0)} MB`;
  console.log(`\n## n. Memory (RSS from /proc: idle ${settleSeconds} s after start; peak during ${seconds} s of mixed load; 10 s after)`);
  printTable(
    ["process", "idle", "peak", "after", "load done"],
    [
      ["server (worker)", f(idle.worker), f(peak), f(after), `${counts.pages} pages, ${counts.orders} orders, ${counts.callbacks} callbacks, ${counts.kits} kit images, ${counts.shed} put off (503), ${counts.errors} errors`],
      ["supervisor", f(idle.supervisor), f(supervisorPeak), f(memoryOf(site.pid)?.rss ?? NaN), ""],
    ],
  );
  budget("server RSS idle", idle.worker <= MEMORY_BUDGET_MB.workerIdle, f(idle.worker), `<= ${MEMORY_BUDGET_MB.workerIdle} MB`);
  budget("server RSS peak (mixed load)", peak <= MEMORY_BUDGET_MB.workerPeak, f(peak), `<= ${MEMORY_BUDGET_MB.workerPeak} MB`);
  budget("supervisor RSS", supervisorPeak <= MEMORY_BUDGET_MB.supervisor, f(supervisorPeak), `<= ${MEMORY_BUDGET_MB.supervisor} MB`);
}
