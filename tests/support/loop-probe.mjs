// Loaded into a site's server process by tests (NODE_OPTIONS="--import …/loop-probe.mjs"): it
// measures how long the event loop is held, in CPU time of the main thread (Linux'
// /proc/thread-self/schedstat), so a busy shared machine does not count against the site. A
// heartbeat every 2 ms; the main thread's CPU time between two beats is one turn of the loop,
// what a request arriving meanwhile waits for at most. Turns over 10 ms are printed as
// `[loop-probe] held N ms`; nothing else is changed in the process.
import cluster from "node:cluster";
import fs from "node:fs";

const STAT = "/proc/thread-self/schedstat";
if (cluster.isWorker && fs.existsSync(STAT)) {
  const cpuMs = () => Number(fs.readFileSync(STAT, "utf8").split(" ")[0]) / 1e6;
  let last = cpuMs();
  setInterval(() => {
    const now = cpuMs();
    if (now - last > 10) process.stderr.write(`[loop-probe] held ${Math.round(now - last)} ms\n`);
    // The probe's own read is not the site's.
    last = cpuMs();
  }, 2).unref();
}
