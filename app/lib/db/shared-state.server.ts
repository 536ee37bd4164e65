import crypto from "node:crypto";
import pg from "pg";
import { deliver, deliverAll, deliverSalt, useRemoteBus } from "../server/cluster-bus.server";
import { isDatabaseUnavailable } from "../core/database-unavailable";
import { postgresPoolOf, type Db } from "./db.server";
import { useSharedLimits } from "../server/rate-limit.server";
import { primeSharedSecrets } from "./secrets.server";

/**
 * On PostgreSQL, several processes on several machines serve one site. What they must agree on
 * comes from the database, not from one process's memory or disk:
 * - the session secret and a generated admin key (site_secrets);
 * - the rate limits and the admin-key throttle (rate_limits, through rate-limiter-flexible);
 * - the day's visitor salt (visitor_salts: one row for today, made by the first process to ask,
 *   deleted as soon as any process asks after the day is over, so old hashes cannot be redone);
 * - 'something changed' messages (page caches emptied everywhere), by LISTEN/NOTIFY.
 * On SQLite (one machine) none of this runs: the supervisor shares what WORKERS need.
 */
const CHANNEL = "site_bus";
const processId = crypto.randomBytes(8).toString("hex");
let timers: NodeJS.Timeout[] = [];
let listener: pg.Client | undefined;
let stopped = false;

export async function startSharedState(db: Db) {
  const pgInfo = postgresPoolOf(db);
  if (!pgInfo) return;
  stopped = false;
  await primeSharedSecrets(db);
  useSharedLimits(pgInfo.pool);
  await refreshSalt(db);
  const saltTimer = setInterval(
    () => void refreshSalt(db).catch((e) => isDatabaseUnavailable(e) || console.error("[shared] visitor salt:", e.message)),
    30_000,
  );
  const pruneTimer = setInterval(() => void pruneLimits(db).catch(() => {}), 15 * 60_000);
  timers = [saltTimer, pruneTimer];
  for (const t of timers) t.unref();
  await listen(pgInfo.url);
  useRemoteBus((topic) => {
    deliver(topic);
    pgInfo.pool
      .query("select pg_notify($1, $2)", [CHANNEL, JSON.stringify({ topic, from: processId })])
      .catch((e: Error) => console.error(`[shared] could not tell the other processes (${topic}):`, e.message));
  });
}

export async function stopSharedState() {
  stopped = true;
  for (const t of timers) clearInterval(t);
  timers = [];
  useRemoteBus(undefined);
  const client = listener;
  listener = undefined;
  await client?.end().catch(() => {});
}

/** Today's salt (UTC day), the same for every process; yesterday's is deleted. */
export async function refreshSalt(db: Db, now = new Date()) {
  const day = now.toISOString().slice(0, 10);
  await db
    .insertInto("visitor_salts")
    .values({ day, salt: crypto.randomBytes(32).toString("base64") })
    .onConflict((oc) => oc.column("day").doNothing())
    .execute();
  await db.deleteFrom("visitor_salts").where("day", "<", day).execute();
  const row = await db.selectFrom("visitor_salts").select("salt").where("day", "=", day).executeTakeFirstOrThrow();
  deliverSalt(day, Buffer.from(row.salt, "base64"));
}

async function pruneLimits(db: Db) {
  await db.deleteFrom("rate_limits").where("expire", "<", Date.now() - 3_600_000).execute();
}

/** A connection of its own that LISTENs; when it drops, it reconnects and empties every cache (a message may be lost). */
async function listen(url: string) {
  const client = new pg.Client({ connectionString: url });
  client.on("notification", (n) => {
    try {
      const message = JSON.parse(n.payload ?? "{}") as { topic?: unknown; from?: unknown };
      if (message.from !== processId && typeof message.topic === "string") deliver(message.topic);
    } catch {
      /* not ours */
    }
  });
  const lost = () => {
    if (listener !== client) return;
    listener = undefined;
    reconnect(url);
  };
  client.on("error", (e) => {
    if (!isDatabaseUnavailable(e)) console.error("[shared] change bus connection failed:", e.message);
    lost();
  });
  client.on("end", lost);
  try {
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
  } catch (e) {
    await client.end().catch(() => {});
    throw e;
  }
  listener = client;
}

/** Reconnects every second; a database that is away is said once (by the site's pool), not each second. */
function reconnect(url: string) {
  if (stopped) return;
  setTimeout(() => {
    if (stopped) return;
    listen(url).then(deliverAll, (e: Error) => {
      if (!isDatabaseUnavailable(e)) console.error("[shared] change bus:", e.message);
      reconnect(url);
    });
  }, 1000).unref();
}
