import { sql, type RawBuilder } from "kysely";
import { system, type Actor } from "~/lib/core/actor";
import type { Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { logAction } from "../activity/activity.server";
import { kindOfReference, ORDER_KIND_LIST } from "../orders/order-kinds";
import { existingOrderIds } from "../orders/orders.server";
import { linkReceipt, type OrderKind } from "../payment-codes/receipt-ledger.server";
import type { SuggestedReceipt } from "../received-payments/payment-state";
import type { ReceiptFact } from "./matching";
import type { AccountClash } from "./payments-screen";
import { LOOK_ALIKE_SQL_PAIRS, lookAlikeKeys, orderReferenceIn, probablyThisOrder, readLookAlikes, SUGGESTION_WINDOW_MS } from "./receipt-rules";

/**
 * The receipts orders hold, read from the ledger for a whole list at once, and the two rules
 * that add to them: a payment whose account number is an order's reference is linked to that
 * order (`linkByAccount`); an unclaimed payment that looks like a typo of the typed code is
 * only offered to staff (`suggestionsFor`).
 */

export type OrderRef = { kind: OrderKind; id?: string; code: string };

const BATCH = 500;
const key = (kind: string, id: string) => `${kind}:${id}`;

async function inBatches<T, R>(items: T[], read: (part: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(...(await read(items.slice(i, i + BATCH))));
  return out;
}

/**
 * Each order's receipts (in the order given) and whether staff marked its typed code wrong.
 * The typed code's receipt counts unless staff unlinked it from the order or another order
 * holds it; every receipt linked to the order in `order_receipts` counts too.
 */
export async function receiptsOf(db: Db, orders: OrderRef[]): Promise<{ receipts: ReceiptFact[]; codeWrong: boolean }[]> {
  const codes = [...new Set(orders.map((o) => o.code.toUpperCase()))];
  const ids = [...new Set(orders.flatMap((o) => (o.id ? [o.id] : [])))];
  const paid = new Map(
    (await inBatches(codes, (part) => db.selectFrom("received_payments").select(["code", "amount", "paid_at", "payer_name", "reversed_at", "reversed_by"]).where("code", "in", part).execute())).map(
      (r) => [r.code, r],
    ),
  );
  const found = [...paid.keys()];
  const claimedBy = new Map(
    (await inBatches(found, (part) => claims(db).select(["c.code", "c.kind", "c.order_id"]).where("c.code", "in", part).execute())).map((r) => [
      r.code,
      key(r.kind, r.order_id),
    ]),
  );
  const linkedTo = new Map(
    (await inBatches(found, (part) => db.selectFrom("order_receipts").select(["trans_id", "kind", "order_id"]).where("trans_id", "in", part).execute())).map((r) => [
      r.trans_id,
      key(r.kind, r.order_id),
    ]),
  );
  const unlinks = await inBatches(ids, (part) => db.selectFrom("receipt_unlinks").select(["trans_id", "kind", "order_id", "reason"]).where("order_id", "in", part).execute());
  const notTheirs = new Set(unlinks.map((u) => `${key(u.kind, u.order_id)}:${u.trans_id}`));
  const wrongCode = new Set(unlinks.filter((u) => u.reason === "wrong_code").map((u) => `${key(u.kind, u.order_id)}:${u.trans_id}`));
  const linked = new Map<string, ReceiptFact[]>();
  const rows = await inBatches(ids, (part) =>
    db
      .selectFrom("order_receipts as r")
      .innerJoin("received_payments as p", "p.code", "r.trans_id")
      .select(["r.kind", "r.order_id", "r.matched_by", "p.code", "p.amount", "p.paid_at", "p.payer_name", "p.reversed_at", "p.reversed_by"])
      .where("r.order_id", "in", part)
      .execute(),
  );
  for (const r of rows) {
    const k = key(r.kind, r.order_id);
    linked.set(k, [...(linked.get(k) ?? []), { transId: r.code, amount: r.amount, paidAt: r.paid_at, payerName: r.payer_name, matchedBy: r.matched_by, reversed: reversalOf(r) }]);
  }
  return orders.map((o) => {
    const code = o.code.toUpperCase();
    const here = o.id ? key(o.kind, o.id) : null;
    const receipts: ReceiptFact[] = here ? [...(linked.get(here) ?? [])] : [];
    const p = paid.get(code);
    // An order read without its id (a bare code) can only be matched by that code.
    const heldElsewhere = here !== null && [claimedBy.get(code), linkedTo.get(code)].some((holder) => holder !== undefined && holder !== here);
    const linkedHere = here !== null && linkedTo.get(code) === here;
    if (p && !heldElsewhere && !linkedHere && !notTheirs.has(`${here}:${code}`)) {
      receipts.push({ transId: p.code, amount: p.amount, paidAt: p.paid_at, payerName: p.payer_name, matchedBy: "code", reversed: reversalOf(p) });
    }
    return { receipts, codeWrong: wrongCode.has(`${here}:${code}`) };
  });
}

/** M-Pesa took the receipt back (a statement's Reversal row): the reversal's receipt and when; null otherwise. */
const reversalOf = (r: { reversed_at: string | null; reversed_by: string | null }) => (r.reversed_at && r.reversed_by ? { by: r.reversed_by, at: r.reversed_at } : null);

/** Typed-code claims that still hold their receipt (staff did not say it is not that order's). */
const claims = (db: Db) =>
  db
    .selectFrom("payment_codes as c")
    .where((eb) => eb.not(eb.exists(eb.selectFrom("receipt_unlinks as u").select("u.trans_id").whereRef("u.trans_id", "=", "c.code").whereRef("u.order_id", "=", "c.order_id"))));

/** Received payments no order holds (neither table), as a query to narrow further. */
export const unclaimedPayments = (db: Db) =>
  db
    .selectFrom("received_payments as p")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("payment_codes as c")
            .select("c.code")
            .whereRef("c.code", "=", "p.code")
            .where((e) => e.not(e.exists(e.selectFrom("receipt_unlinks as u").select("u.trans_id").whereRef("u.trans_id", "=", "c.code").whereRef("u.order_id", "=", "c.order_id")))),
        ),
      ),
    )
    .where((eb) => eb.not(eb.exists(eb.selectFrom("order_receipts as r").select("r.trans_id").whereRef("r.trans_id", "=", "p.code"))));

export type OrderToSuggest = { kind: OrderKind; id: string; code: string; amount: number; createdAt: string };

/**
 * For orders that hold no receipt: the unclaimed payments that are probably theirs (the
 * typed code with a look-alike or one wrong character, the order's amount, paid within three
 * days of the order), except those staff already said are not. In the order given.
 */
export async function suggestionsFor(db: Db, orders: OrderToSuggest[]): Promise<SuggestedReceipt[][]> {
  if (orders.length === 0) return [];
  const times = orders.map((o) => Date.parse(o.createdAt));
  const from = new Date(Math.min(...times) - SUGGESTION_WINDOW_MS).toISOString();
  const to = new Date(Math.max(...times) + SUGGESTION_WINDOW_MS).toISOString();
  // Two codes one character apart agree on their first five or their last five characters
  // (after reading look-alikes as digits): the database narrows to those, the rule decides.
  const read = LOOK_ALIKE_SQL_PAIRS.reduce<RawBuilder<string>>((expr, [letter, digit]) => sql<string>`replace(${expr}, ${letter}, ${digit})`, sql<string>`p.code`);
  const candidates = await inBatches(orders, (part) => {
    const codes = part.map((o) => readLookAlikes(o.code.toUpperCase())).filter((c) => c.length === 10);
    if (codes.length === 0) return Promise.resolve([]);
    return unclaimedPayments(db)
      .select(["p.code", "p.amount", "p.paid_at", "p.payer_name"])
      .where("p.paid_at", ">=", from)
      .where("p.paid_at", "<=", to)
      .where("p.amount", "in", [...new Set(part.map((o) => o.amount))])
      .where((eb) =>
        eb.or([eb(sql<string>`substr(${read}, 1, 5)`, "in", [...new Set(codes.map((c) => c.slice(0, 5)))]), eb(sql<string>`substr(${read}, 6, 5)`, "in", [...new Set(codes.map((c) => c.slice(5)))])]),
      )
      .limit(5000)
      .execute();
  });
  if (candidates.length === 0) return orders.map(() => []);
  const refused = new Set(
    (await inBatches([...new Set(orders.map((o) => o.id))], (part) => db.selectFrom("receipt_unlinks").select(["trans_id", "order_id"]).where("order_id", "in", part).execute())).map(
      (u) => `${u.order_id}:${u.trans_id}`,
    ),
  );
  const byKey = new Map<string, Map<string, (typeof candidates)[number]>>();
  for (const c of candidates) {
    for (const k of lookAlikeKeys(c.code)) {
      const bucket = byKey.get(k) ?? new Map();
      bucket.set(c.code, c);
      byKey.set(k, bucket);
    }
  }
  return orders.map((o) => {
    const near = new Map(lookAlikeKeys(o.code.toUpperCase()).flatMap((k) => [...(byKey.get(k) ?? new Map()).entries()]));
    return [...near.values()]
      .filter((c) => !refused.has(`${o.id}:${c.code}`) && probablyThisOrder(o, { code: c.code, amount: c.amount, paidAt: c.paid_at }))
      .sort((a, b) => a.paid_at.localeCompare(b.paid_at))
      .map((c) => ({ transId: c.code, amount: c.amount, at: c.paid_at, payerName: c.payer_name }));
  });
}

const ACCOUNT_RULE = "Account number is the order's reference";

/**
 * Links every unclaimed payment whose account number names an existing order to that order
 * (`matched_by` 'account'), unless staff said it is not that order's. Safe to run from several
 * places and processes at once: the ledger lets a receipt go to one order. Answers what it
 * linked; each link is logged with the site as the actor.
 *
 * `scope` narrows what is read (reading every unclaimed payment's account number made each
 * callback's cost grow with the payments received): `payments`, just these, as received (a
 * confirmation callback links its own payment); `receivedSince`, those received since then (the
 * background pass after its first).
 */
export async function linkByAccount(
  db: Db,
  actor: Actor = system(ACCOUNT_RULE),
  scope: { payments?: readonly { code: string; accountRef: string }[]; receivedSince?: string } = {},
): Promise<{ transId: string; kind: OrderKind; orderId: string }[]> {
  // Most account numbers say VESPERS: a payment whose account number names no order is not asked for.
  const codes = scope.payments?.filter((p) => orderReferenceIn(p.accountRef)).map((p) => p.code);
  if (codes && codes.length === 0) return [];
  // Only account numbers that could hold a reference ('BO…', 'b0 …', 'MO…') are read: most say VESPERS.
  const read = (part?: string[]) => {
    let q = unclaimedPayments(db)
      .select(["p.code", "p.account_ref"])
      .where((eb) => eb.or(["%BO%", "%B0%", "%MO%", "%M0%"].map((pattern) => eb(sql<string>`upper(p.account_ref)`, "like", pattern))));
    if (part) q = q.where("p.code", "in", part);
    if (scope.receivedSince) q = q.where("p.received_at", ">=", scope.receivedSince);
    return q.execute();
  };
  const rows = codes ? await inBatches(codes, read) : await read();
  const named = rows.flatMap((r) => {
    const ref = orderReferenceIn(r.account_ref);
    const kind = ref ? kindOfReference(ref) : null;
    return ref && kind ? [{ transId: r.code, orderId: ref, kind }] : [];
  });
  if (named.length === 0) return [];
  const refs = [...new Set(named.map((n) => n.orderId))];
  const existing = new Set<string>();
  for (const kind of ORDER_KIND_LIST) {
    const wanted = refs.filter((r) => kindOfReference(r) === kind);
    for (const id of await inBatches(wanted, (part) => existingOrderIds(db, kind, part))) existing.add(key(kind, id));
  }
  const refused = new Set(
    (await inBatches([...new Set(named.map((n) => n.transId))], (part) => db.selectFrom("receipt_unlinks").select(["trans_id", "order_id"]).where("trans_id", "in", part).execute())).map(
      (u) => `${u.order_id}:${u.trans_id}`,
    ),
  );
  const done: { transId: string; kind: OrderKind; orderId: string }[] = [];
  for (const n of named) {
    if (!existing.has(key(n.kind, n.orderId)) || refused.has(`${n.orderId}:${n.transId}`)) continue;
    try {
      const added = await db.transaction().execute((trx) => linkReceipt(trx, { ...n, matchedBy: "account", linkedBy: actor.kind === "staff" ? actor.ip : "system" }));
      if (!added) continue;
    } catch (e) {
      // Taken by its code in the meantime: the ledger's answer stands.
      if (e instanceof DomainError && e.code === "conflict") continue;
      throw e;
    }
    done.push(n);
    await logAction(db, actor, {
      type: "payments.link",
      message: `M-Pesa payment ${n.transId} linked to ${n.orderId}: its account number names the order`,
      meta: { transId: n.transId, orderId: n.orderId, matchedBy: "account" },
    });
  }
  return done;
}


/**
 * Payments an order holds by its typed code while their account number names another order
 * that exists: one of the two supporters typed or paid with the other's details. The receipt
 * stays with the typed code (the ledger's one-receipt-one-order rule); staff are shown both
 * orders and decide (unlink, then link).
 */
export async function accountClashes(db: Db, limit = 100): Promise<AccountClash[]> {
  const rows = await claims(db)
    .innerJoin("received_payments as p", "p.code", "c.code")
    .select(["p.code", "p.amount", "p.paid_at", "p.account_ref", "c.kind", "c.order_id"])
    .where((eb) => eb.or(["%BO%", "%B0%", "%MO%", "%M0%"].map((pattern) => eb(sql<string>`upper(p.account_ref)`, "like", pattern))))
    .orderBy("p.paid_at", "desc")
    .limit(limit * 4)
    .execute();
  const clashing = rows.flatMap((r) => {
    const ref = orderReferenceIn(r.account_ref);
    return ref && ref !== r.order_id ? [{ r, named: { kind: (ref.startsWith("BO-") ? "badge" : "merch") as OrderKind, id: ref } }] : [];
  });
  const existing = new Set<string>();
  for (const [kind, table] of [["badge", "badge_orders"], ["merch", "merch_orders"]] as const) {
    const wanted = [...new Set(clashing.filter((c) => c.named.kind === kind).map((c) => c.named.id))];
    for (const r of await inBatches(wanted, (part) => db.selectFrom(table).select("id").where("id", "in", part).execute())) existing.add(key(kind, r.id));
  }
  return clashing
    .filter((c) => existing.has(key(c.named.kind, c.named.id)))
    .slice(0, limit)
    .map(({ r, named }) => ({ transId: r.code, amount: r.amount, paidAt: r.paid_at, heldBy: { kind: r.kind, id: r.order_id }, named }));
}

/** Orders (badge and merch, not rejected) placed within the suggestion window of `[from, to]`, with these amounts. */
export async function ordersNear(db: Db, from: string, to: string, amounts: number[]): Promise<OrderToSuggest[]> {
  if (amounts.length === 0) return [];
  const lo = new Date(Date.parse(from) - SUGGESTION_WINDOW_MS).toISOString();
  const hi = new Date(Date.parse(to) + SUGGESTION_WINDOW_MS).toISOString();
  return inBatches(amounts, (part) =>
    db
      .selectFrom("badge_orders")
      .select([sql<OrderKind>`'badge'`.as("kind"), "id", "payment_reference as code", "amount", "created_at as createdAt"])
      .where("status", "<>", "rejected")
      .where("created_at", ">=", lo)
      .where("created_at", "<=", hi)
      .where("amount", "in", part)
      .unionAll(
        db
          .selectFrom("merch_orders")
          .select([sql<OrderKind>`'merch'`.as("kind"), "id", "payment_reference as code", "total as amount", "ts as createdAt"])
          .where("status", "<>", "rejected")
          .where("ts", ">=", lo)
          .where("ts", "<=", hi)
          .where("total", "in", part),
      )
      .limit(2000)
      .execute(),
  );
}
