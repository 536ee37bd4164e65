import cluster from "node:cluster";

/**
 * Messages between the server processes `npm start` runs (WORKERS), through the supervisor:
 * `broadcast(topic)` reaches every other process, which runs what it registered with
 * `onBroadcast(topic)`; the supervisor also hands every process the day's visitor salt. In a
 * single process (the default, and tests) broadcasting does nothing: there is no one to tell.
 */
type Incoming = { site: "broadcast"; topic: string } | { site: "salt"; day: string; key: string };

const topics = new Map<string, Set<() => void>>();
const saltListeners = new Set<(day: string, key: Buffer) => void>();
let listening = false;

function listen() {
  if (listening || !cluster.isWorker) return;
  listening = true;
  process.on("message", (message: Incoming | undefined) => {
    if (message?.site === "broadcast") {
      for (const run of topics.get(message.topic) ?? []) run();
    } else if (message?.site === "salt" && typeof message.key === "string") {
      for (const take of saltListeners) take(message.day, Buffer.from(message.key, "base64"));
    }
  });
}

export function broadcast(topic: string) {
  if (cluster.isWorker && process.send) process.send({ site: "broadcast", topic });
}

export function onBroadcast(topic: string, run: () => void) {
  listen();
  const set = topics.get(topic) ?? new Set();
  set.add(run);
  topics.set(topic, set);
}

export function onSalt(take: (day: string, key: Buffer) => void) {
  listen();
  saltListeners.add(take);
}
