// `npm start`: builds when the build is missing or older than the sources, then serves it from
// a supervised server process.
import cluster from "node:cluster";
import path from "node:path";
import { ensureBuild, root } from "./ensure-build.mjs";

ensureBuild("start");
process.env.NODE_ENV = "production";

// The supervisor: the server runs in a child process (a node:cluster worker sharing the port),
// and a child that dies is replaced within a second, so no crash leaves the site down. A child
// that fails before it ever served (a bad setting, a port in use) stops `npm start` with its
// exit code instead of restarting forever.
cluster.setupPrimary({ exec: path.join(root, "app/server/worker.mjs") });
let stopping = false;
let everServed = false;
const recentCrashes = [];

function startWorker() {
  const worker = cluster.fork();
  worker.once("listening", () => {
    everServed = true;
  });
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

startWorker();
