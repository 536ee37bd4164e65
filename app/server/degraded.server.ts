import type { Db } from "~/lib/db/db.server";
import { mailHealth } from "~/lib/mail/mail-health.server";
import { paymentArrivals } from "~/features/received-payments/payment-arrivals.server";

/** A trouble that leaves pages working: /readyz names it in `degraded` and stays 200. */
export type Signal = { ok: boolean } & Record<string, string | number | boolean | null>;

export async function degradedSignals(db: Db): Promise<Record<string, Signal>> {
  const [mail, payments] = await Promise.all([mailHealth(db), paymentArrivals(db)]);
  return {
    mail: { ok: !mail.failing, failedAttemptsInRow: mail.failuresInRow, failingSince: mail.since, outboxOnly: mail.outboxOnly },
    payments: {
      ok: !payments.stale,
      lastC2bCallbackAt: payments.lastC2bCallbackAt,
      lastStkCallbackAt: payments.lastStkCallbackAt,
      lastStatementImportAt: payments.lastStatementImportAt,
      ordersWaiting: payments.ordersWaiting,
      callbacksOn: payments.callbacksOn,
      quietHours: payments.quietHours,
    },
  };
}
