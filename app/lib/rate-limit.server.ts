import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "./env.server";

export type LimitRule = { points: number; durationSeconds: number; blockSeconds?: number };

/** Per-address limits for public forms and endpoints. One process, so memory is enough. */
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
} satisfies Record<string, LimitRule>;

const limiters = new Map<string, RateLimiterMemory>();

function limiterFor(name: string, rule: LimitRule) {
  let l = limiters.get(name);
  if (!l) {
    l = new RateLimiterMemory({
      keyPrefix: name,
      points: rule.points,
      duration: rule.durationSeconds,
      blockDuration: rule.blockSeconds ?? 0,
    });
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
  try {
    await limiterFor(name, rule).consume(key || "unknown", opts.points ?? 1);
    return { ok: true };
  } catch (e) {
    if (e instanceof RateLimiterRes) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
    }
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
  limiters.clear();
}
