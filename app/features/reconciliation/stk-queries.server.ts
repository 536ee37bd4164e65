import type { Db } from "~/lib/db/db.server";
import { isDatabaseUnavailable } from "~/lib/core/database-unavailable";
import { askAboutQuietPushes, stkEnabled } from "../stk-push/stk-push.server";
import { afterPayments } from "./auto-approve.server";

let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;

/**
 * With M-Pesa Express on: looks for quiet prompts every 10 seconds (askAboutQuietPushes); a
 * prompt found paid is followed up like any other payment (afterPayments: linking and the
 * automatic approval).
 */
export function startStkQueries(db: Db, everyMs = 10_000) {
  if (!stkEnabled() || timer) return;
  const tick = () => {
    if (running) return;
    running = askAboutQuietPushes(db)
      .then(({ paid }) => {
        if (paid > 0) afterPayments();
      })
      .catch((e) => isDatabaseUnavailable(e) || console.error("[stk] asking about prompts failed:", (e as Error).message))
      .finally(() => (running = undefined));
  };
  timer = setInterval(tick, everyMs);
  timer.unref();
}

export async function stopStkQueries() {
  if (timer) clearInterval(timer);
  timer = undefined;
  await running;
}
