import { system } from "~/lib/actor";
import { getDb, type Db } from "~/lib/db.server";
import { DomainError } from "~/lib/domain-error";
import { env } from "~/lib/env.server";
import { singleFlight } from "~/lib/single-flight";
import { onPaymentsChanged } from "~/lib/payment-signal.server";
import { generateBadgeAssets, getBadgeOrder } from "../event-badges/badge-orders.server";
import { paymentStatesFor } from "./matching.server";
import { changeMerchOrderStatus, setBadgeOrderStatus } from "./orders.server";

/**
 * AUTO_APPROVE_VERIFIED: a pending order whose payment M-Pesa's records show in full is
 * approved with no click (a badge order gets its kit rendered and emailed; a merch order its
 * confirmation). Orders whose payment is short, missing, reversed or made before sales opened
 * are left to staff. The activity log names the site as the actor, with the reason. Safe to run from
 * several places and processes at once: every approval only moves a still-pending order.
 */
export const AUTO_REASON = "M-Pesa payment verified (AUTO_APPROVE_VERIFIED)";

export async function approveVerifiedOrders(db: Db): Promise<{ badges: string[]; merch: string[] }> {
  const done = { badges: [] as string[], merch: [] as string[] };
  if (!env().autoApproveVerified) return done;
  const actor = system(AUTO_REASON);

  const badges = await db
    .selectFrom("badge_orders as o")
    .innerJoin("received_payments as p", "p.code", "o.payment_reference")
    .select(["o.id", "o.payment_reference", "o.amount", "o.created_at"])
    .where("o.status", "=", "pending")
    .whereRef("p.amount", ">=", "o.amount")
    .where("p.reversed_at", "is", null)
    .orderBy("o.created_at")
    .execute();
  const badgeStates = await paymentStatesFor(
    db,
    badges.map((b) => ({ code: b.payment_reference, amount: b.amount, createdAt: b.created_at, kind: "badge" as const })),
  );
  for (const b of badges) {
    const p = badgeStates.get(b.payment_reference.toUpperCase());
    if (p?.state !== "verified" || p.beforeSales) continue;
    try {
      const order = await getBadgeOrder(db, b.id);
      if (order.status !== "pending") continue;
      if (!order.badgePath || !order.posterPath) await generateBadgeAssets(db, b.id, actor);
      await setBadgeOrderStatus(db, b.id, "approved", actor);
      done.badges.push(b.id);
    } catch (e) {
      // Another process (or a staff member) got there first; anything else is for the log.
      if (!(e instanceof DomainError && e.code === "conflict")) console.error(`[payments] automatic approval of ${b.id} failed`, e);
    }
  }

  const merch = await db
    .selectFrom("merch_orders as o")
    .innerJoin("received_payments as p", "p.code", "o.payment_reference")
    .select(["o.id", "o.payment_reference", "o.total", "o.ts"])
    .where("o.status", "=", "pending")
    .whereRef("p.amount", ">=", "o.total")
    .where("p.reversed_at", "is", null)
    .orderBy("o.ts")
    .execute();
  const merchStates = await paymentStatesFor(
    db,
    merch.map((m) => ({ code: m.payment_reference, amount: m.total, createdAt: m.ts, kind: "merch" as const })),
  );
  for (const m of merch) {
    // The same rule as the badges: only what matching calls verified (never reversed).
    if (merchStates.get(m.payment_reference.toUpperCase())?.state !== "verified") continue;
    try {
      await changeMerchOrderStatus(db, { id: m.id, status: "approved", onlyFrom: "pending" }, actor);
      done.merch.push(m.id);
    } catch (e) {
      if (!(e instanceof DomainError && e.code === "conflict")) console.error(`[payments] automatic approval of ${m.id} failed`, e);
    }
  }
  return done;
}

const approver = singleFlight("payments", async () => {
  await approveVerifiedOrders(await getDb());
});

/** Runs the approval now, or once more after the run under way (never two at once here). */
export function kickAutoApprove(): Promise<void> {
  return env().autoApproveVerified ? approver.kick() : Promise.resolve();
}

let timer: NodeJS.Timeout | undefined;
let unsubscribe: (() => void) | undefined;

/**
 * At start-up: approve what is already verified, then whenever an order or a payment arrives,
 * and every few minutes (an order a crash interrupted is not forgotten).
 */
export function startAutoApprove(pollMs = 5 * 60_000) {
  if (!env().autoApproveVerified) return;
  unsubscribe ??= onPaymentsChanged(() => void kickAutoApprove());
  timer ??= setInterval(() => void kickAutoApprove(), pollMs);
  timer.unref();
  void kickAutoApprove();
}

export async function stopAutoApprove() {
  if (timer) clearInterval(timer);
  timer = undefined;
  unsubscribe?.();
  unsubscribe = undefined;
  await approver.idle();
}
