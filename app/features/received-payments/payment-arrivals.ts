import { formatNairobiTimeEat } from "~/lib/core/nairobi-time";

/** When M-Pesa last spoke to the site (payment-arrivals.server.ts). Times are ISO UTC, null: never. */
export type PaymentArrivals = {
  lastC2bCallbackAt: string | null;
  lastStkCallbackAt: string | null;
  lastStatementImportAt: string | null;
  ordersWaiting: number;
  oldestWaitingAt: string | null;
  callbacksOn: boolean;
  quietHours: number;
  stale: boolean;
};

/** '21 Nov 2026, 14:05 EAT', or 'never'. */
export const whenWords = (at: string | null) => (at ? formatNairobiTimeEat(at) : "never");

/** The warning staff read while callbacks are quiet and orders wait (null when all is well). */
export function quietWarning(a: PaymentArrivals): string | null {
  if (!a.stale) return null;
  const last = [a.lastC2bCallbackAt, a.lastStkCallbackAt].filter(Boolean).sort().pop() ?? null;
  return `No M-Pesa callback for more than ${a.quietHours} hours (last: ${whenWords(last)}) while ${a.ordersWaiting} order${a.ordersWaiting === 1 ? " waits" : "s wait"}: check the callback registration, the proxy and MPESA_CALLBACK_SECRET, and import a statement.`;
}
