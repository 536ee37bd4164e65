import cluster from "node:cluster";
import type pg from "pg";
import { RateLimiterCluster, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { isDatabaseUnavailable } from "../core/database-unavailable";
import { env } from "./env.server";

export type LimitRule = { points: number; durationSeconds: number; blockSeconds?: number };

/**
 * Per-address limits for public forms and endpoints. One process: in its memory. Several
 * (WORKERS): in the supervisor's memory, which every process asks (rate-limiter-flexible's
 * cluster limiter), so an address gets the same allowance whichever process answers.
 */
export const limits = {
  newsletter: { points: 8, durationSeconds: 600 },
  application: { points: 5, durationSeconds: 600 },
  track: { points: 240, durationSeconds: 60 },
  badgeOrder: { points: 10, durationSeconds: 600 },
  merchOrder: { points: 10, durationSeconds: 600 },
  orderLookup: { points: 10, durationSeconds: 600 },
  merchBag: { points: 120, durationSeconds: 600 },
  reactions: { points: 120, durationSeconds: 60 },
  votes: { points: 120, durationSeconds: 60 },
  badgeVerify: { points: 30, durationSeconds: 600 },
} satisfies Record<string, LimitRule>;

const limiters = new Map<string, RateLimiterAbstract>();
const local = new Map<string, RateLimiterMemory>();

const optionsOf = (name: string, rule: LimitRule) => ({
  keyPrefix: name,
  points: rule.points,
  duration: rule.durationSeconds,
  blockDuration: rule.blockSeconds ?? 0,
});

function localFor(name: string, rule: LimitRule) {
  let l = local.get(name);
  if (!l) local.set(name, (l = new RateLimiterMemory(optionsOf(name, rule))));
  return l;
}

/** On PostgreSQL the counters live in its rate_limits table: every process and machine counts together. */
let postgresPool: pg.Pool | undefined;

export function useSharedLimits(pool: pg.Pool) {
  postgresPool = pool;
  limiters.clear();
}

function limiterFor(name: string, rule: LimitRule): RateLimiterAbstract {
  let l = limiters.get(name);
  if (!l) {
    if (postgresPool) {
      l = new RateLimiterPostgres({
        ...optionsOf(name, rule),
        storeClient: postgresPool,
        storeType: "pool",
        tableName: "rate_limits",
        tableCreated: true,
        clearExpiredByTimeout: false,
      });
    } else if (cluster.isWorker && env().workers > 1) {
      l = new RateLimiterCluster({ ...optionsOf(name, rule), timeoutMs: 2000 });
    } else {
      l = localFor(name, rule);
    }
    limiters.set(name, l);
  }
  return l;
}

export type LimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Takes one point (or `points`) for `key` (the client address). `force` keeps the limit on
 * when the site-wide RATE_LIMIT switch is off (the admin key throttle).
 */
export async function consume(
  name: string,
  rule: LimitRule,
  key: string,
  opts: { force?: boolean; points?: number } = {},
): Promise<LimitResult> {
  if (!opts.force && !env().rateLimit) return { ok: true };
  const points = opts.points ?? 1;
  try {
    await limiterFor(name, rule).consume(key || "unknown", points);
    return { ok: true };
  } catch (e) {
    if (e instanceof RateLimiterRes) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
    }
    // The supervisor did not answer in time, or the database holding the counts is away: this
    // process's own count stands in, never a 5xx (the database's absence is logged once elsewhere).
    if (!isDatabaseUnavailable(e)) console.warn(`[rate-limit] shared limit ${name} unavailable (${e instanceof Error ? e.message : String(e)}); counting here`);
    return consumeLocal(name, rule, key, points);
  }
}

async function consumeLocal(name: string, rule: LimitRule, key: string, points: number): Promise<LimitResult> {
  try {
    await localFor(name, rule).consume(key || "unknown", points);
    return { ok: true };
  } catch (e) {
    if (e instanceof RateLimiterRes) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
    throw e;
  }
}

export function tooManyMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return retryAfterSeconds < 60
    ? `Too many attempts from your connection. Please try again in ${retryAfterSeconds} seconds.`
    : `Too many attempts from your connection. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export function resetRateLimitsForTests() {
  postgresPool = undefined;
  limiters.clear();
  local.clear();
}
