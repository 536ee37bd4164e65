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
    // On PostgreSQL the database carries both (and the supervisor sends no salt).
    if (remote) return;
    if (message?.site === "broadcast") deliver(message.topic);
    else if (message?.site === "salt" && typeof message.key === "string") deliverSalt(message.day, Buffer.from(message.key, "base64"));
  });
}

/**
 * On PostgreSQL the message goes through the database instead (LISTEN/NOTIFY, see
 * shared-state.server.ts), which reaches every process on every machine.
 */
let remote: ((topic: string) => void) | undefined;

export function useRemoteBus(send: ((topic: string) => void) | undefined) {
  remote = send;
}

export function broadcast(topic: string) {
  if (remote) remote(topic);
  else if (cluster.isWorker && process.send) process.send({ site: "broadcast", topic });
}

/** Runs what this process registered for `topic` (a message from another process). */
export function deliver(topic: string) {
  for (const run of topics.get(topic) ?? []) run();
}

/** Runs every registered topic: after a gap in which messages may have been missed. */
export function deliverAll() {
  for (const runs of topics.values()) for (const run of runs) run();
}

/** Hands this process the day's visitor salt (from the supervisor, or from the database). */
export function deliverSalt(day: string, key: Buffer) {
  for (const take of saltListeners) take(day, key);
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
