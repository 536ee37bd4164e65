import pg from "pg";
import { runsUngated } from "./database-health.server";

/**
 * A client-side deadline on every query of the site's PostgreSQL pool. statement_timeout is
 * enforced by the server: a server that does not answer at all (frozen, a dead link, a full
 * socket buffer) would keep a request waiting until the connection's idle timeout. Past the
 * deadline the connection is dropped: its query fails at once ('Connection terminated'), which
 * the site answers 503 with Retry-After and its sentence, the pool replaces the connection, and
 * a transaction left open on the server is rolled back there when it sees the socket closed.
 * Migrations at start-up (runUngated) have no deadline: they may take longer on a big database.
 */
export const QUERY_DEADLINE_MS = 5_000;

type Callback = (err: Error | null, result?: unknown) => void;

export class DeadlineClient extends pg.Client {
  override query(...args: unknown[]): any {
    if (runsUngated()) return (super.query as (...a: unknown[]) => unknown)(...args);
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    const done = () => {
      finished = true;
      clearTimeout(timer);
    };
    // The callback forms (pg-pool's pool.query): the callback is the last argument, or the config's.
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = ((err: Error | null, result?: unknown) => {
        done();
        (last as Callback)(err, result);
      }) as Callback;
    } else if (args[0] && typeof args[0] === "object" && typeof (args[0] as { callback?: unknown }).callback === "function") {
      const config = args[0] as { callback: Callback };
      const callback = config.callback;
      config.callback = (err, result) => {
        done();
        callback(err, result);
      };
    }
    // Looked at once more after the event loop has read what arrived: after a stall of this
    // process the answer may be waiting in the socket, read only after the timers have run.
    timer = setTimeout(() => setImmediate(() => finished || this.dropConnection()), QUERY_DEADLINE_MS);
    timer.unref();
    let result: unknown;
    try {
      result = (super.query as (...a: unknown[]) => unknown)(...args);
    } catch (e) {
      done();
      throw e;
    }
    if (result && typeof (result as Promise<unknown>).then === "function") (result as Promise<unknown>).then(done, done);
    return result;
  }

  private dropConnection() {
    const stream = (this as unknown as { connection?: { stream?: { destroy: (e?: Error) => void } } }).connection?.stream;
    stream?.destroy();
  }
}
