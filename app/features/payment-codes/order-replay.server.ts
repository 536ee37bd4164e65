import type { Db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/db.server";
import { lockName } from "~/lib/db/dialect.server";
import { DomainError } from "~/lib/core/domain-error";
import { claimPaymentCode } from "./payment-codes.server";
import { codelessOrdersSince } from "../orders/orders.server";
import { lockReceipt, type OrderKind } from "./receipt-ledger.server";

/**
 * One payment code pays one order, but the same order sent again (a phone that never got the
 * first answer) is not a second order: it is answered with the stored one. 'The same order' is
 * for the order's feature to say (same email, same tier or bag); a different person's order
 * with the code stays refused, and nothing about it is told. A JSON caller may also name its
 * request with an `Idempotency-Key`: kept with the order, in the database (any process sees
 * it), a repeat with the same body is answered with that order, another body is refused.
 */

/** A caller's name for one order request, and a hash of the request's body. */
export type Idempotency = { key: string; bodyHash: string };

export const IDEMPOTENCY_KEY_REUSED =
  "This Idempotency-Key was already used with a different order. Send a new key with each new order.";

/**
 * Thrown inside an order's transaction when the order is already stored as `orderId`, so that
 * nothing this attempt wrote is kept; the feature catches it and answers with the stored order.
 */
export class OrderReplay extends Error {
  override readonly name = "OrderReplay";
  constructor(readonly orderId: string) {
    super(`The order is already stored as ${orderId}.`);
  }
}

/** How long an Idempotency-Key answers for its order; after that it is a new key. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60_000;
const keptSince = () => new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS).toISOString();

/** The body hash and order kept with an Idempotency-Key (not yet expired), if any. */
const storedKey = (db: Db, kind: OrderKind, key: string) =>
  db
    .selectFrom("order_idempotency_keys")
    .select(["body_hash", "order_id"])
    .where("kind", "=", kind)
    .where("idem_key", "=", key)
    .where("created_at", ">=", keptSince())
    .executeTakeFirst();

/**
 * Before any work: the order an earlier request with this key placed (the same body), or a
 * conflict (another body), or null (a new key, or none).
 */
export async function orderOfKey(db: Db, kind: OrderKind, idempotency: Idempotency | undefined): Promise<string | null> {
  if (!idempotency) return null;
  const row = await storedKey(db, kind, idempotency.key);
  if (!row) return null;
  if (row.body_hash !== idempotency.bodyHash) throw new DomainError("conflict", IDEMPOTENCY_KEY_REUSED);
  return row.order_id;
}

/**
 * In place of claimPaymentCode, inside the order's transaction and before it writes anything:
 * the code is claimed for `orderId`, unless the order that holds it is this same order sent
 * again (`isSameOrder`), which throws OrderReplay. Two at once wait on the receipt's lock, so
 * the second sees the first's order. The key, when there is one, is kept with the new order.
 */
export async function claimCodeForOrder(
  trx: Db,
  claim: {
    code: string;
    kind: OrderKind;
    orderId: string;
    idempotency?: Idempotency;
    isSameOrder: (storedOrderId: string) => Promise<boolean>;
  },
): Promise<void> {
  await lockReceipt(trx, claim.code);
  const stored = await trx.selectFrom("payment_codes").select(["kind", "order_id"]).where("code", "=", claim.code).executeTakeFirst();
  if (stored && stored.kind === claim.kind && (await claim.isSameOrder(stored.order_id))) throw new OrderReplay(stored.order_id);
  await claimPaymentCode(trx, claim.code, claim.kind, claim.orderId);
  if (claim.idempotency) await keepIdempotencyKey(trx, claim.kind, claim.idempotency, claim.orderId);
}

/** Keeps an Idempotency-Key with its order; the same key and body again is an OrderReplay. */
export async function keepIdempotencyKey(trx: Db, kind: OrderKind, idempotency: Idempotency, orderId: string) {
  // Expired keys are forgotten as new ones are kept.
  await trx.deleteFrom("order_idempotency_keys").where("created_at", "<", keptSince()).execute();
  const res = await trx
    .insertInto("order_idempotency_keys")
    .values({ kind, idem_key: idempotency.key, body_hash: idempotency.bodyHash, order_id: orderId, created_at: nowIso() })
    .onConflict((oc) => oc.columns(["kind", "idem_key"]).doNothing())
    .executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0) === 1) return;
  // Another request with this key committed meanwhile (PostgreSQL waited for it).
  const row = await storedKey(trx, kind, idempotency.key);
  if (row && row.body_hash === idempotency.bodyHash) throw new OrderReplay(row.order_id);
  throw new DomainError("conflict", IDEMPOTENCY_KEY_REUSED);
}

/** An order without a code sent again within this long is the same order (a second press of 'Pay now'). */
export const CODELESS_REPLAY_MS = 10 * 60_000;

const samePhone = (a: string, b: string) => {
  const digits = (s: string) => s.replace(/\D/g, "").replace(/^(?:254|0)/, "");
  return digits(a) !== "" && digits(a) === digits(b);
};

/**
 * Inside an order's transaction, for an order without a typed code (paid by prompt): the same
 * email (any case) and phone, with the same tier or items (`isSameOrder`), placed in the last
 * CODELESS_REPLAY_MS, is this order sent again: OrderReplay, answered with the stored one and
 * no new prompt. Two at once wait on the email's lock, so the second sees the first.
 */
export async function replayCodelessOrder(
  trx: Db,
  order: { kind: OrderKind; email: string; phone: string; isSameOrder: (storedOrderId: string) => Promise<boolean> },
  now = new Date(),
): Promise<void> {
  const email = order.email.trim().toLowerCase();
  await lockName(trx, `codeless-order:${order.kind}:${email}`);
  const since = new Date(now.getTime() - CODELESS_REPLAY_MS).toISOString();
  const rows = await codelessOrdersSince(trx, order.kind, since);
  for (const r of rows) {
    if (r.email.trim().toLowerCase() === email && samePhone(r.phone, order.phone) && (await order.isSameOrder(r.id))) throw new OrderReplay(r.id);
  }
}
