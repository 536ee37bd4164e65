import type http from "node:http";
import { sql } from "kysely";
import { databaseStatus, runUngated } from "~/lib/db/database-health.server";
import { migrationNames, type Db } from "~/lib/db/db.server";
import { degradedSignals, type Signal } from "./degraded.server";
import { diskCheck } from "~/lib/server/disk-space.server";
import { env } from "~/lib/server/env.server";

/**
 * What a load balancer and an operator ask, answered before the page cache and the router,
 * never cached, never rate-limited, never counted as a page view, with nothing personal in it:
 * - GET /healthz: this process serves (200), or is draining on its way out (503).
 * - GET /readyz: it can do its work: it is not draining, the database answers, every migration
 *   this build knows has run, the outbox is not stuck, and the disk has room (DATA_DIR's free
 *   space not under DISK_MIN_FREE_MB, no 'disk full' from the database since its last commit). 200 `{ok:true, checks}`, else 503
 *   with `failing` naming the checks that failed.
 * The outbox is stuck when a message has been due for more than 15 minutes and nothing has been
 * sent since it fell due: no process is working the queue (a busy one, sending a long
 * newsletter, keeps sending).
 * Troubles that leave pages working do not make /readyz a 503 (the load balancer keeps
 * serving): they are named in `degraded`, with their facts in `detail` (degraded.server.ts).
 */
export type HealthSource = { draining: () => boolean; db: () => Db };

const CHECK_TIMEOUT_MS = 2_000;
export const OUTBOX_STUCK_MS = 15 * 60_000;
/** Answers given within this long of each other share one look at the database. */
const REUSE_MS = 1_000;

type Check = { ok: boolean } & Record<string, string | number | boolean>;
type Readiness = { ok: boolean; failing?: string[]; checks: Record<string, Check>; degraded?: string[]; detail?: Record<string, Signal> };

export function answerHealth(req: http.IncomingMessage, res: http.ServerResponse, url: URL, source: HealthSource): boolean {
  if (url.pathname !== "/healthz" && url.pathname !== "/readyz") return false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    send(req, res, 405, { ok: false, error: "Use GET." }, { Allow: "GET, HEAD" });
    return true;
  }
  if (url.pathname === "/healthz") {
    const draining = source.draining();
    send(req, res, draining ? 503 : 200, draining ? { ok: false, draining: true } : { ok: true });
    return true;
  }
  readiness(source).then(
    (r) => send(req, res, r.ok ? 200 : 503, r),
    () => send(req, res, 503, { ok: false, failing: ["readiness"], checks: {} }),
  );
  return true;
}

let recent: { at: number; answer: Promise<Readiness> } | undefined;

export function forgetReadinessForTests() {
  recent = undefined;
}

function readiness(source: HealthSource): Promise<Readiness> {
  if (source.draining()) return Promise.resolve(assemble({ serving: { ok: false, draining: true } }));
  if (recent && Date.now() - recent.at < REUSE_MS) return recent.answer;
  const answer = look(source.db());
  recent = { at: Date.now(), answer };
  return answer;
}

async function look(db: Db): Promise<Readiness> {
  const checks: Record<string, Check> = { serving: { ok: true } };
  const status = databaseStatus();
  if (!status.up) {
    checks.database = { ok: false, downForSeconds: status.downForSeconds };
  } else {
    const started = performance.now();
    checks.database = (await bounded(() => sql`select 1`.execute(db)))
      ? { ok: true, ms: Math.round(performance.now() - started) }
      : { ok: false, error: "no answer" };
  }
  if (!checks.database.ok) {
    checks.migrations = { ok: false, error: "not checked: no database" };
    checks.outbox = { ok: false, error: "not checked: no database" };
    checks.disk = await diskCheck(env().dataDir);
    return assemble(checks);
  }
  const expected = migrationNames();
  const applied = await bounded(() => sql<{ name: string }>`select name from kysely_migration`.execute(db));
  if (!applied) {
    checks.migrations = { ok: false, error: "could not read the migrations table" };
  } else {
    const done = new Set(applied.rows.map((r) => r.name));
    const pending = expected.filter((n) => !done.has(n)).length;
    checks.migrations = { ok: pending === 0 && status.ready, applied: expected.length - pending, expected: expected.length };
  }
  checks.outbox = await outboxCheck(db);
  checks.disk = await diskCheck(env().dataDir);
  const detail = await bounded(() => degradedSignals(db));
  const answer = assemble(checks);
  if (!detail) return answer;
  const degraded = Object.entries(detail).filter(([, d]) => !d.ok).map(([name]) => name);
  return { ...answer, ...(degraded.length ? { degraded } : {}), detail };
}

async function outboxCheck(db: Db): Promise<Check> {
  const cutoff = new Date(Date.now() - OUTBOX_STUCK_MS).toISOString();
  const overdue = await bounded(() =>
    db.selectFrom("outbox").select("next_attempt_at").where("status", "=", "queued").where("next_attempt_at", "<=", cutoff).orderBy("next_attempt_at").limit(1).executeTakeFirst(),
  );
  if (overdue === null) return { ok: false, error: "could not read the outbox" };
  if (!overdue) return { ok: true };
  const sentSince = await bounded(() =>
    db.selectFrom("outbox").select("id").where("status", "in", ["sent", "written"]).where("sent_at", ">=", overdue.next_attempt_at).limit(1).executeTakeFirst(),
  );
  if (sentSince === null) return { ok: false, error: "could not read the outbox" };
  const minutes = Math.floor((Date.now() - Date.parse(overdue.next_attempt_at)) / 60_000);
  return sentSince ? { ok: true, oldestDueMinutes: minutes } : { ok: false, stuck: true, oldestDueMinutes: minutes };
}

/** The query's result, or null when it failed or took longer than the check may wait. */
async function bounded<T>(query: () => Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([runUngated(query).catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

function assemble(checks: Record<string, Check>): Readiness {
  const failing = Object.entries(checks)
    .filter(([, c]) => !c.ok)
    .map(([name]) => name);
  return failing.length ? { ok: false, failing, checks } : { ok: true, checks };
}

function send(req: http.IncomingMessage, res: http.ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
  res.end(req.method === "HEAD" ? undefined : text);
}
