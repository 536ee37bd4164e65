import { system } from "~/lib/core/actor";
import { getDb, type Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { env } from "~/lib/server/env.server";
import { requestsFirst } from "~/lib/server/loop-watch.server";
import { singleFlight } from "~/lib/core/single-flight";
import { pendingOrdersWithReceipts } from "../orders/orders.server";
import { linkByAccount } from "./receipts.server";
import { changeMerchOrderStatus, generateBadgeAssets, getBadgeOrder, getMerchOrder, setBadgeOrderStatus } from "./orders.server";

/**
 * AUTO_APPROVE_VERIFIED: a pending order whose receipts add up to exactly its amount
 * (`verified`) is approved with no click (a badge order gets its kit rendered and emailed; a
 * merch order its confirmation). Orders paid short, paid more, paid long before the order,
 * reversed or missing, and payments only offered as 'probably this order', are left to staff.
 * The activity log names the site as the actor, with the reason. Safe to run from several
 * places and processes at once: every approval only moves a still-pending order.
 */
export const AUTO_REASON = "M-Pesa payment verified (AUTO_APPROVE_VERIFIED)";

export async function approveVerifiedOrders(db: Db): Promise<{ badges: string[]; merch: string[] }> {
  const done = { badges: [] as string[], merch: [] as string[] };
  if (!env().autoApproveVerified) return done;
  const actor = system(AUTO_REASON);

  for (const id of await pendingOrdersWithReceipts(db, "badge")) {
    try {
      const order = await getBadgeOrder(db, id);
      // Verified only: never short, over, early, reversed, or a payment merely offered as probable.
      if (order.status !== "pending" || order.payment.state !== "verified" || order.payment.beforeSales) continue;
      if (!order.badgePath || !order.posterPath) await generateBadgeAssets(db, id, actor);
      await setBadgeOrderStatus(db, id, "approved", actor);
      done.badges.push(id);
    } catch (e) {
      // Another process (or a staff member) got there first; anything else is for the log.
      if (!(e instanceof DomainError && e.code === "conflict")) console.error(`[payments] automatic approval of ${id} failed`, e);
    }
  }

  for (const id of await pendingOrdersWithReceipts(db, "merch")) {
    const m = await getMerchOrder(db, id);
    if (!m || m.status !== "pending" || m.payment.state !== "verified") continue;
    try {
      await changeMerchOrderStatus(db, { id, status: "approved", onlyFrom: "pending" }, actor);
      done.merch.push(id);
    } catch (e) {
      if (!(e instanceof DomainError && e.code === "conflict")) console.error(`[payments] automatic approval of ${id} failed`, e);
    }
  }
  return done;
}

/**
 * While requests are under way, a pass waits this long before it starts: it reads the payments
 * received since the last pass and every pending order with a receipt, and a burst of callbacks
 * kicks it once per commit. The callbacks are answered first (each links its own
 * payment already); the pass follows within a quarter of a second.
 */
export const PASS_PACE_WHILE_ANSWERING_MS = 250;

/**
 * A pass reads the payments received since the one before it began, less this much: a payment
 * written while a pass was reading (its time taken just before) is read again by the next.
 */
export const LINK_OVERLAP_MS = 5_000;
/** Where the next pass starts reading; undefined: every unclaimed payment (the first pass, and each poll). */
let linkSince: string | undefined;

/**
 * The background pass: payments whose account number names an order are linked to it, then
 * (AUTO_APPROVE_VERIFIED) verified orders are approved. A callback and a statement import link
 * their own payments as they store them; the pass catches what a crash or another path left, so
 * after its first it reads only what arrived since (the poll every few minutes reads them all).
 */
const approver = singleFlight("payments", async () => {
  await requestsFirst(PASS_PACE_WHILE_ANSWERING_MS);
  const db = await getDb();
  const began = Date.now();
  await linkByAccount(db, undefined, linkSince ? { receivedSince: linkSince } : {});
  linkSince = new Date(began - LINK_OVERLAP_MS).toISOString();
  await approveVerifiedOrders(db);
});

/** Runs the pass now, or once more after the run under way (never two at once here). */
export function kickAutoApprove(): Promise<void> {
  return approver.kick();
}

let timer: NodeJS.Timeout | undefined;

/**
 * What follows an order or a payment being stored: whoever stored it (a route, an API
 * adapter, a background loop of the server, a staff action of this folder) calls this once its
 * work is committed. It kicks the pass when the pass was started (startAutoApprove); otherwise,
 * as in a unit test or a script, it does nothing. Never throws.
 */
export function afterPayments(): void {
  if (timer) void kickAutoApprove();
}

/**
 * At start-up: link and approve what is already there, then after every afterPayments(), and
 * every few minutes (work a crash interrupted is not forgotten). Runs whether or not
 * AUTO_APPROVE_VERIFIED is on: the account-number rule always applies.
 */
export function startAutoApprove(pollMs = 5 * 60_000) {
  linkSince = undefined;
  timer ??= setInterval(() => {
    linkSince = undefined;
    void kickAutoApprove();
  }, pollMs);
  timer.unref();
  void kickAutoApprove();
}

export async function stopAutoApprove() {
  if (timer) clearInterval(timer);
  timer = undefined;
  await approver.idle();
}
