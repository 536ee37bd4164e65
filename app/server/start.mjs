// `npm start`: builds when the build is missing or older than the sources, then serves it from
// supervised server processes (WORKERS of them, default 1) sharing one port.
import cluster from "node:cluster";
import crypto from "node:crypto";
import path from "node:path";
import { RateLimiterClusterMaster } from "rate-limiter-flexible";
import { AggregatorRegistry } from "prom-client";
import { ensureBuild, root } from "./ensure-build.mjs";

const workersText = process.env.WORKERS?.trim() || "1";
const WORKERS = /^\d+$/.test(workersText) ? Number(workersText) : NaN;
if (!(WORKERS >= 1 && WORKERS <= 64)) {
  console.error(`Invalid configuration:\n  WORKERS: must be a whole number from 1 to 64`);
  process.exit(1);
}

ensureBuild("start");
// The server always runs React's production build; whether this is a deployed site (where a missing
// or local PUBLIC_URL stops the start) is the operator's NODE_ENV=production, as the deploy's unit sets.
process.env.OPERATOR_NODE_ENV ??= process.env.NODE_ENV ?? "";
process.env.NODE_ENV = "production";

// With several server processes, what must be the same in all of them lives here, in memory
// only: the per-address limits (rate-limiter-flexible's cluster master answers every worker),
// the day's salt for visitors without a client id (handed to each worker, never written down),
// and the relay that tells every worker what one of them changed (a saved post empties every
// page cache).
if (WORKERS > 1) new RateLimiterClusterMaster();
let salt = { day: "", key: "" };
const todaysSalt = () => {
  const day = new Date().toISOString().slice(0, 10);
  if (salt.day !== day) salt = { day, key: crypto.randomBytes(32).toString("base64") };
  return salt;
};
const sendSalt = (worker) => worker.isConnected() && worker.send({ site: "salt", ...todaysSalt() });
if (WORKERS > 1) {
  setInterval(() => {
    const before = salt.day;
    if (todaysSalt().day !== before) for (const w of Object.values(cluster.workers ?? {})) if (w) sendSalt(w);
  }, 30_000).unref();
}

// The supervisor: the server runs in a child process (a node:cluster worker sharing the port),
// and a child that dies is replaced within a second, so no crash leaves the site down. A child
// that fails before it ever served (a bad setting, a port in use) stops `npm start` with its
// exit code instead of restarting forever.
// The server process's V8 heap for a 1 GB server: a 2 MB young generation (16 MB by default
// grows RSS with every burst of short-lived objects) and collection before the old generation
// passes 256 MB (its live data is 60-70 MB; by default V8 lets it grow far past that). Flags
// given in NODE_OPTIONS or on the command line come after these and win.
cluster.setupPrimary({
  exec: path.join(root, "app/server/worker.mjs"),
  execArgv: ["--max-semi-space-size=2", "--max-old-space-size=256", ...process.execArgv],
});
let stopping = false;
let everServed = false;
// GET /metrics with several processes: the one asked gets every process's series, summed here.
const metrics = WORKERS > 1 ? new AggregatorRegistry() : null;
const recentCrashes = [];

function startWorker() {
  // Two malloc arenas, not glibc's eight per core: libvips' and resvg's threads otherwise each
  // keep freed memory in an arena of their own (the server held ~100 MB more after load).
  // And blocks of 128 kB and more (a kit's 1080x1080 pixels, a decoded photo) mapped on their own,
  // so freeing one gives it back: glibc otherwise raises this threshold after the first such free
  // (up to 32 MB) and keeps what later ones free (idle RSS 198 -> 183 MB measured).
  const worker = cluster.fork({
    WORKERS: String(WORKERS),
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
    MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? "131072",
  });
  worker.once("listening", () => {
    everServed = true;
  });
  if (metrics) {
    worker.on("message", (message) => {
      if (message?.site !== "metrics-request") return;
      const answer = (text) => worker.isConnected() && worker.send({ site: "metrics-answer", id: message.id, text });
      metrics.clusterMetrics().then(answer, () => answer(null));
    });
  }
  if (WORKERS > 1) {
    worker.once("online", () => sendSalt(worker));
    worker.on("message", (message) => {
      if (message?.site !== "broadcast") return;
      for (const other of Object.values(cluster.workers ?? {})) if (other && other !== worker && other.isConnected()) other.send(message);
    });
  }
  worker.once("exit", (code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
    if (!everServed) {
      console.error(`[start] the server process ${how} before it could serve: stopping.`);
      process.exit(code || 1);
    }
    const now = Date.now();
    while (recentCrashes.length && now - recentCrashes[0] > 60_000) recentCrashes.shift();
    recentCrashes.push(now);
    // Straight back up; only a process that keeps dying waits longer each time (up to 30 s).
    const delay = recentCrashes.length <= 3 ? 0 : Math.min(30_000, 1000 * 2 ** (recentCrashes.length - 3));
    console.error(
      `[start] the server process ${worker.process.pid} ${how}; starting a new one${delay ? ` in ${delay / 1000} s` : ""}.`,
    );
    setTimeout(startWorker, delay);
  });
}

function stop(signal) {
  if (stopping) return;
  stopping = true;
  const workers = Object.values(cluster.workers ?? {});
  if (workers.length === 0) process.exit(0);
  for (const w of workers) w?.process.kill(signal === "SIGINT" ? "SIGINT" : "SIGTERM");
  // The server finishes what is under way within about 15 s; do not wait forever.
  setTimeout(() => process.exit(0), 20_000).unref();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));

for (let i = 0; i < WORKERS; i++) startWorker();
