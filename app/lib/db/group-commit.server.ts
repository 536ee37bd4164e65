import { performance } from "node:perf_hooks";
import { sql, type Transaction } from "kysely";
import type { DB } from "../../database";
import type { Db } from "./db.server";
import { isPostgres } from "./dialect.server";

/**
 * Group commit (SQLite): the writes of orders placed at the same moment share one transaction,
 * and so one commit. With synchronous = FULL every COMMIT waits for the disk (the WAL's fsync)
 * and holds the one connection and the event loop while it does; fifty orders at once paid
 * fifty of them, one after the other. PostgreSQL already groups the flushes of concurrent
 * commits itself: there each write keeps a transaction of its own (see inGroupCommit). Here an order's write is queued; when none is
 * being written, the queue so far is written in one transaction, each write inside its own
 * SAVEPOINT: a write that fails is rolled back to its savepoint and answered with its own error,
 * the others go on. Only after the COMMIT returns is any of them answered, so an order that was
 * told 'received' is on disk, exactly as with a transaction of its own. Writes queued while a
 * batch is being written form the next batch; a batch waits for writes still arriving for a few
 * milliseconds at most (`gather`), and a lone order is written after one turn of the event
 * loop, in a plain transaction.
 *
 * A write must use only the transaction it is given (never `db`: on SQLite that would wait for
 * the connection the batch holds), and must not keep the batch waiting on anything but the
 * database (no mail, no images): everything in its batch waits for it.
 */
export type GroupWrite<T> = (trx: Transaction<DB>) => Promise<T>;

/** At most this many writes share a commit (the rest wait for the next one). */
export const MAX_BATCH = 64;
/** The longest a batch waits for writes still arriving before it is written. */
export const GATHER_MS = 4;

type Job = { write: GroupWrite<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

class GroupCommitter {
  private queue: Job[] = [];
  private writing = false;
  /** Sizes of the batches written so far (bounded), for tests and the bench. */
  readonly recent: number[] = [];

  constructor(private readonly db: Db) {}

  add<T>(write: GroupWrite<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (v: unknown) => void, reject });
      if (!this.writing) {
        this.writing = true;
        void this.drain();
      }
    });
  }

  private async drain() {
    try {
      while (this.queue.length > 0) {
        await this.gather();
        await this.writeBatch(this.queue.splice(0, MAX_BATCH));
      }
    } finally {
      this.writing = false;
      if (this.queue.length > 0) {
        this.writing = true;
        void this.drain();
      }
    }
  }

  /**
   * While more writes keep arriving turn after turn of the event loop (orders whose requests were
   * read together, now a few steps from here), waits for them, up to GATHER_MS: a burst is then
   * written in a few commits rather than many small ones. A lone write waits one turn.
   */
  private async gather() {
    const started = performance.now();
    let seen = -1;
    while (this.queue.length !== seen && this.queue.length < MAX_BATCH && performance.now() - started < GATHER_MS) {
      seen = this.queue.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async writeBatch(jobs: Job[]) {
    this.recent.push(jobs.length);
    if (this.recent.length > 1000) this.recent.splice(0, this.recent.length - 1000);
    if (jobs.length === 1) {
      const [job] = jobs as [Job];
      try {
        job.resolve(await this.db.transaction().execute((trx) => job.write(trx)));
      } catch (e) {
        job.reject(e);
      }
      return;
    }
    const outcomes: Outcome[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const [i, job] of jobs.entries()) {
          const point = sql.raw(`order_write_${i}`);
          await sql`savepoint ${point}`.execute(trx);
          try {
            const value = await job.write(trx);
            await sql`release savepoint ${point}`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            // Only this write is undone; a failure of the rollback itself fails the batch, with
            // the write's own error: when SQLite has already ended the whole transaction (the
            // disk is full) the savepoint is gone, and 'no such savepoint' would hide why.
            try {
              await sql`rollback to savepoint ${point}`.execute(trx);
              await sql`release savepoint ${point}`.execute(trx);
            } catch {
              throw error;
            }
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (e) {
      // BEGIN, a savepoint or the COMMIT failed: nothing of this batch is stored, and every
      // write of it is answered with that failure (a 503 'try again' when the database is away).
      for (const job of jobs) job.reject(e);
      return;
    }
    for (const [i, job] of jobs.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    }
  }
}

const committers = new WeakMap<Db, GroupCommitter>();

function committerOf(db: Db) {
  let c = committers.get(db);
  if (!c) {
    c = new GroupCommitter(db);
    committers.set(db, c);
  }
  return c;
}

/**
 * Runs `write` in a transaction shared with the other writes queued at the same moment (see
 * above); resolves with its result once that transaction has committed, or rejects with its
 * own error (its changes undone, the others' kept), or with the batch's if the commit failed.
 */
export function inGroupCommit<T>(db: Db, write: GroupWrite<T>): Promise<T> {
  // PostgreSQL flushes the log once for commits that arrive together (its own group commit),
  // without holding this process, and its transactions run side by side on the pool. Batching
  // there would make one transaction take the locks of many orders in turn, and two server
  // processes' batches could then wait on each other (a deadlock, one order failed).
  if (isPostgres(db)) return db.transaction().execute(write);
  return committerOf(db).add(write);
}

/** For tests and the bench: the sizes of the last batches written on `db` (oldest first). */
export function recentBatchSizes(db: Db): number[] {
  return [...(committers.get(db)?.recent ?? [])];
}
