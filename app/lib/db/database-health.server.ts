import { AsyncLocalStorage } from "node:async_hooks";
import { DatabaseUnavailableError, isDatabaseUnavailable, unavailableSentence, UNAVAILABLE } from "../core/database-unavailable";

/**
 * Whether the site's database (the one getDb() opens) can be used now, for this process.
 *
 * - Down: a query failed in a way `isDatabaseUnavailable` recognises. Said once in the log; from
 *   then on a request that needs the database is refused at once (503) instead of each waiting
 *   for a connection or a lock, and a probe asks the database every half second (outside the
 *   gate). The first answer brings the site back, said once in the log.
 * - Not ready: the process started while the database was away and has not migrated it yet;
 *   requests that need the database are refused the same way until it has.
 * Databases opened for other reasons (tests, the copy command) are not watched.
 */
const PROBE_EVERY_MS = 500;

type Probe = () => Promise<unknown> | unknown;

const state = {
  watching: false,
  up: true,
  ready: false,
  downSince: 0,
  reason: "",
  probe: undefined as Probe | undefined,
  timer: undefined as NodeJS.Timeout | undefined,
  waiters: [] as (() => void)[],
};

/** Queries made inside `runUngated` pass the gate: migrations at start-up, the readiness check. */
const ungated = new AsyncLocalStorage<boolean>();

export function watchDatabase(probe: Probe) {
  unwatchDatabase();
  state.watching = true;
  state.probe = probe;
}

export function unwatchDatabase() {
  if (state.timer) clearTimeout(state.timer);
  Object.assign(state, { watching: false, up: true, ready: false, downSince: 0, reason: "", probe: undefined, timer: undefined });
  for (const wake of state.waiters.splice(0)) wake();
}

export const runUngated = <T>(work: () => Promise<T>): Promise<T> => ungated.run(true, work);

/** Whether the caller runs inside runUngated (migrations, the readiness check). */
export const runsUngated = () => ungated.getStore() === true;

/** Throws DatabaseUnavailableError when a request should not touch the database now. */
export function assertDatabaseOpen() {
  if (!state.watching || ungated.getStore()) return;
  if (!state.up) throw new DatabaseUnavailableError(`the database is unavailable (${state.reason})`);
  if (!state.ready) throw new DatabaseUnavailableError("the database is not ready yet (migrations have not run)");
}

export function markDatabaseReady() {
  state.ready = true;
}

/** Records a failed query: an outage starts (logged once) when the error says the database is away. */
export function noteDatabaseError(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  // The gate's own refusal says nothing new about the database.
  if (error instanceof DatabaseUnavailableError && !error.cause) return true;
  if (!state.watching || !state.up) return true;
  state.up = false;
  state.downSince = Date.now();
  state.reason = describe(error);
  console.error(
    `[db] database unavailable (${state.reason}): requests that need it are answered 503 and cached pages are still served; checking again every ${PROBE_EVERY_MS} ms`,
  );
  scheduleProbe();
  return true;
}

function scheduleProbe() {
  if (state.timer || !state.probe) return;
  state.timer = setTimeout(async () => {
    const probe = state.probe;
    try {
      if (!probe) return;
      await probe();
      state.timer = undefined;
      if (!state.watching || state.probe !== probe || state.up) return;
      state.up = true;
      console.log(`[db] database available again after ${((Date.now() - state.downSince) / 1000).toFixed(1)} s`);
      for (const wake of state.waiters.splice(0)) wake();
    } catch {
      state.timer = undefined;
      if (state.watching && state.probe === probe) scheduleProbe();
    }
  }, PROBE_EVERY_MS);
  state.timer.unref();
}

/** Resolves when the database answers again (at once when it is not known to be away). */
export function whenDatabaseUp(): Promise<void> {
  if (state.up) return Promise.resolve();
  return new Promise((resolve) => state.waiters.push(resolve));
}

export function databaseStatus() {
  return {
    watching: state.watching,
    up: state.up,
    ready: state.ready,
    downForSeconds: state.up ? 0 : Math.round((Date.now() - state.downSince) / 1000),
  };
}

/** A short reason for the log: the code or the first line of the message, no addresses. */
function describe(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; cause?: unknown };
  const code = typeof e?.code === "string" ? e.code : "";
  const message = typeof e?.message === "string" ? e.message.split("\n")[0]!.replace(/\d{1,3}(\.\d{1,3}){3}(:\d+)?/g, "…").slice(0, 120) : "";
  return [code, message].filter(Boolean).join(" ") || "no answer";
}

// ------------------------------------------------------------------------------ answers

/** The request being answered, so an error deep inside can be worded for its page. */
const answering = new AsyncLocalStorage<{ method: string; pathname: string }>();

export const answerScope = <T>(request: { method: string; pathname: string }, work: () => T): T => answering.run(request, work);

export const requestBeingAnswered = () => answering.getStore();

/** The sentence for the request being answered (the generic 'try again' outside one). */
export function sentenceForThisRequest(): string {
  const r = answering.getStore();
  return r ? unavailableSentence(r.method, r.pathname) : UNAVAILABLE.save;
}
