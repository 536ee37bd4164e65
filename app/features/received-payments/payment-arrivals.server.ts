import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import type { PaymentArrivals } from "./payment-arrivals";
import type { PaymentView } from "./payment-state";

/**
 * When M-Pesa last spoke to the site, and whether that silence matters: the last C2B
 * confirmation (kept or set aside), the last M-Pesa Express answer (callback, or query when the
 * callback did not come), the last statement import, and the orders still pending. With
 * callbacks on, orders pending while no callback has come for CALLBACKS_QUIET_AFTER (default
 * 6 h) are `stale`: the callbacks may have stopped (an expired registration, the proxy, the
 * secret) and every supporter who paid waits.
 */

const latest = (...times: (string | null | undefined)[]) =>
  times.filter((t): t is string => !!t).reduce<string | null>((a, b) => (a === null || b > a ? b : a), null);

export async function paymentArrivals(db: Db, now = new Date()): Promise<PaymentArrivals> {
  const [c2b, setAside, stk, statement, badges, merch] = await Promise.all([
    db.selectFrom("received_payments").select((eb) => eb.fn.max("received_at").as("at")).where("source", "=", "callback").executeTakeFirst(),
    db.selectFrom("callbacks_set_aside").select((eb) => eb.fn.max("received_at").as("at")).executeTakeFirst(),
    db.selectFrom("stk_pushes").select((eb) => eb.fn.max("settled_at").as("at")).where("result_code", "is not", null).executeTakeFirst(),
    db.selectFrom("mpesa_imports").select((eb) => eb.fn.max("imported_at").as("at")).executeTakeFirst(),
    db.selectFrom("badge_orders").select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("created_at").as("oldest")]).where("status", "=", "pending").executeTakeFirst(),
    db.selectFrom("merch_orders").select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("ts").as("oldest")]).where("status", "=", "pending").executeTakeFirst(),
  ]);
  const config = env();
  const lastC2bCallbackAt = latest(c2b?.at as string | null, setAside?.at as string | null);
  const lastStkCallbackAt = (stk?.at as string | null) ?? null;
  const ordersWaiting = Number(badges?.n ?? 0) + Number(merch?.n ?? 0);
  const oldestWaitingAt = ordersWaiting ? (([badges?.oldest, merch?.oldest].filter(Boolean) as string[]).sort()[0] ?? null) : null;
  const callbacksOn = !!config.mpesaCallbackSecret;
  // Quiet since the last callback, or (none ever) since the oldest order began waiting.
  const quietSince = latest(lastC2bCallbackAt, lastStkCallbackAt) ?? oldestWaitingAt;
  const stale = callbacksOn && ordersWaiting > 0 && quietSince !== null && now.getTime() - Date.parse(quietSince) >= config.callbacksQuietAfterMs;
  return {
    lastC2bCallbackAt,
    lastStkCallbackAt,
    lastStatementImportAt: (statement?.at as string | null) ?? null,
    ordersWaiting,
    oldestWaitingAt,
    callbacksOn,
    quietHours: Math.round((config.callbacksQuietAfterMs / 3_600_000) * 100) / 100,
    stale,
  };
}

/**
 * The orders of a staff screen, each `unmatched` one told when the last callback and statement
 * import arrived: 'No payment seen yet' means more when staff see M-Pesa spoke an hour ago.
 */
export async function withLastSeen<T extends { payment?: PaymentView }>(db: Db, orders: T[]): Promise<T[]> {
  if (!orders.some((o) => o.payment?.state === "unmatched")) return orders;
  const a = await paymentArrivals(db);
  const lastSeen = { callbackAt: latest(a.lastC2bCallbackAt, a.lastStkCallbackAt), statementAt: a.lastStatementImportAt };
  return orders.map((o) => (o.payment?.state === "unmatched" ? { ...o, payment: { ...o.payment, lastSeen } } : o));
}
