import { isDatabaseUnavailable } from "~/lib/core/database-unavailable";
import type { Db } from "~/lib/db/db.server";
import { enqueueMail, kickMailWorker } from "~/lib/mail/email.server";
import { nairobiInstant } from "~/lib/core/nairobi-time";
import { absoluteUrl } from "~/lib/http/http.server";
import { orderPagePath } from "~/features/orders/order-page";
import { storeEntryQr } from "./check-in.server";
import { eventReminderEmail } from "./emails/badge-emails";
import type { EventRecord } from "./event";
import { getEvent } from "./event.server";
import { entryQrAttachment, mailFields } from "./badge-orders.server";

/** Reminders go out from this Nairobi hour the day before the event (a morning message, not a midnight one). */
export const REMINDER_HOUR = 9;
const BATCH = 100;

/**
 * When the day-before reminders may be queued: from 09:00 in Nairobi the day before the event
 * until the event starts (its time, or the end of its day when no time is set). A server that
 * was down at 09:00 catches up when it comes back; none is sent once the evening has begun.
 */
export function reminderWindow(e: EventRecord): { from: Date; until: Date } {
  const day = nairobiInstant(e.date);
  const from = new Date(day.getTime() - 24 * 3600_000 + REMINDER_HOUR * 3600_000);
  const until = e.time ? nairobiInstant(e.date, e.time) : new Date(day.getTime() + 24 * 3600_000);
  return { from, until };
}

/**
 * Queues the day-before reminder for every approved supporter (a revoked badge is not
 * reminded) who has not had one for this event date. Each is claimed by a compare-and-set on badge_orders.reminder_for in the same
 * transaction as its message, so a reminder is queued once, whichever process runs this, however
 * often, across restarts; the outbox then sends and retries it. A new event date reminds again.
 */
export async function queueEventReminders(db: Db, now = new Date()): Promise<{ queued: number }> {
  const event = await getEvent(db);
  const { from, until } = reminderWindow(event);
  if (now < from || now >= until) return { queued: 0 };
  let queued = 0;
  for (;;) {
    const due = await db
      .selectFrom("badge_orders")
      .select(["id", "name", "email", "tier_name", "amount", "payment_reference", "hard_copy", "asset_token"])
      .where("status", "=", "approved")
      .where("badge_revoked_at", "is", null)
      .where((eb) => eb.or([eb("reminder_for", "is", null), eb("reminder_for", "!=", event.date)]))
      .orderBy("id")
      .limit(BATCH)
      .execute();
    if (due.length === 0) break;
    for (const row of due) {
      await storeEntryQr(db, row.id);
      const claimed = await db.transaction().execute(async (trx) => {
        const won = await trx
          .updateTable("badge_orders")
          .set({ reminder_for: event.date })
          .where("id", "=", row.id)
          .where("status", "=", "approved")
          .where("badge_revoked_at", "is", null)
          .where((eb) => eb.or([eb("reminder_for", "is", null), eb("reminder_for", "!=", event.date)]))
          .executeTakeFirst();
        if (Number(won.numUpdatedRows) !== 1) return false;
        await enqueueMail(trx, {
          kind: "badge.reminder",
          to: row.email,
          ...eventReminderEmail(mailFields(row), event, absoluteUrl(orderPagePath(row.id, row.asset_token))),
          attachments: [entryQrAttachment(row.id)],
        });
        return true;
      });
      if (claimed) queued += 1;
    }
    if (due.length < BATCH) break;
  }
  if (queued > 0) void kickMailWorker();
  return { queued };
}

let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;

/** Looks for due reminders a minute after start, then every 10 minutes. */
export function startEventReminders(db: Db, { firstDelayMs = 60_000, everyMs = 10 * 60_000 } = {}) {
  const tick = () => {
    if (running) return;
    running = queueEventReminders(db)
      .then((r) => r.queued > 0 && console.log(`[reminders] queued ${r.queued} day-before reminder(s)`))
      .catch((e) => isDatabaseUnavailable(e) || console.error("[reminders] could not queue the reminders:", (e as Error).message))
      .finally(() => (running = undefined));
  };
  const first = setTimeout(tick, firstDelayMs);
  timer = setInterval(tick, everyMs);
  first.unref();
  timer.unref();
}

export async function stopEventReminders() {
  if (timer) clearInterval(timer);
  timer = undefined;
  await running;
}
