import { performance } from "node:perf_hooks";

/**
 * The server watches its own event loop. Every request shares one thread: while it is held
 * (a burst of page renders, a large body being handled) every visitor waits, cached pages too.
 * When the loop lagged more than `LAG_LIMIT_MS` in three samples in a row while it was saturated
 * (a load, not one long moment, nor this process waiting for a CPU others hold), the site is
 * busy for `BUSY_HOLD_MS`, or until the loop is seen idle: the server puts off new page renders
 * and uploads with 503 and Retry-After while cached pages and static files keep flowing
 * (app/server/overload.ts), and the page cache postpones its background compression.
 */
export const LAG_LIMIT_MS = 100;
/** A sample counts only when the loop was this busy (saturated, not this process waiting for a CPU). */
const BUSY_SHARE = 0.9;
/** A loop busy less than this share of a sample is idle: the site stops being busy at once. */
const IDLE_SHARE = 0.5;
export const BUSY_HOLD_MS = 1_000;
/** Samples over the limit in a row that make a load (not one long moment). */
const SAMPLES_IN_A_ROW = 3;
/** A heartbeat this often; how late it comes is how long the loop was held. */
const BEAT_MS = 20;
/** One sample: the worst lateness over this long. */
const SAMPLE_MS = 100;
/** At most one log line per this long: a busy minute is a few lines, not thousands. */
const LOG_EVERY_MS = 10_000;

let timer: ReturnType<typeof setInterval> | undefined;
let busyUntil = 0;
let lastLag = 0;
let overInARow = 0;
let idleInARow = 0;
let lastLogged = 0;

/** Starts watching (idempotent). The timer never keeps the process alive. */
export function startLoopWatch() {
  if (timer) return;
  let lastBeat = performance.now();
  let sampleStart = lastBeat;
  let worst = 0;
  let used = performance.eventLoopUtilization();
  timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - lastBeat - BEAT_MS);
    lastBeat = now;
    if (now - sampleStart < SAMPLE_MS) return;
    const share = performance.eventLoopUtilization(used).utilization;
    used = performance.eventLoopUtilization();
    noteLag(worst, share);
    worst = 0;
    sampleStart = now;
  }, BEAT_MS);
  timer.unref();
}

export function stopLoopWatch() {
  if (timer) clearInterval(timer);
  timer = undefined;
  busyUntil = 0;
  lastLag = 0;
  overInARow = 0;
  idleInARow = 0;
}

/**
 * Records a sample: the worst lag in it, and the share of it the loop was busy (the watch's own
 * samples; tests may feed their own).
 */
export function noteLag(ms: number, share = 1, now = Date.now()) {
  lastLag = ms;
  overInARow = ms > LAG_LIMIT_MS && share >= BUSY_SHARE ? overInARow + 1 : 0;
  // A loop mostly idle has nothing waiting: whatever made it busy is over.
  idleInARow = share < IDLE_SHARE ? idleInARow + 1 : 0;
  if (idleInARow >= SAMPLES_IN_A_ROW - 1) busyUntil = 0;
  if (overInARow < SAMPLES_IN_A_ROW) return;
  busyUntil = now + BUSY_HOLD_MS;
  if (now - lastLogged >= LOG_EVERY_MS) {
    lastLogged = now;
    console.warn(`[http] the event loop lagged ${Math.round(ms)} ms: new uploads and uncached pages get 503 for a moment; cached pages keep flowing`);
  }
}

/** True while the loop lagged over the limit within the last `BUSY_HOLD_MS`. */
export const loopBusy = (now = Date.now()) => now < busyUntil;

/** The worst lag of the latest sample, in ms. */
export const latestLagMs = () => lastLag;

/** Seconds a client should wait before trying again. */
export const retryAfterSeconds = () => Math.max(1, Math.ceil((busyUntil - Date.now()) / 1000) + 1);

// ------------------------------------------------------------------ requests first

/** Requests under way (counted by app/server/overload.ts: inTurns and asWork, direct API calls too). */
let answering = 0;

export const requestStarted = () => {
  answering += 1;
};
export const requestEnded = () => {
  answering -= 1;
};
export const requestsUnderWay = () => answering;

/**
 * Background work's turn (the mail worker between two messages, the payments pass): while requests
 * are under way it waits `ms` first, once, so a rush of orders is answered before its mail is sent;
 * the work is slowed while requests keep coming, never stopped, and runs at full speed once they
 * stop. Resolves at once when nothing is under way.
 */
export function requestsFirst(ms: number): Promise<void> {
  if (answering <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms));
}
