import type { Actor } from "~/lib/actor";
import { nowIso, type Db } from "~/lib/db.server";
import { logAction } from "../activity/activity.server";
import { decidePaymentState, type PaymentStanding } from "./matching";
import type { ReceivedPayment } from "./payment";
import { parseStatement, type ParsedStatement } from "./statement";

/**
 * The ledger of payments M-Pesa says arrived. A payment is keyed by its code: the same one
 * arriving twice (a callback and a statement, two imports) is stored once; the first to arrive
 * is kept.
 */

const row = (p: ReceivedPayment, receivedAt: string) => ({
  code: p.code,
  amount: p.amount,
  paid_at: p.paidAt,
  payer_name: p.payerName.slice(0, 120),
  payer_phone: p.payerPhone.slice(0, 40),
  account_ref: p.accountRef.slice(0, 40),
  shortcode: p.shortcode.slice(0, 10),
  source: p.source,
  raw: JSON.stringify(p.raw),
  received_at: receivedAt,
});

/** Stores payments not yet known (in one transaction); answers which codes were new. */
export async function recordPayments(db: Db, payments: ReceivedPayment[]): Promise<{ added: string[]; known: string[] }> {
  if (payments.length === 0) return { added: [], known: [] };
  const now = nowIso();
  const inOne = <T>(work: (trx: Db) => Promise<T>) => (db.isTransaction ? work(db) : db.transaction().execute(work));
  return inOne(async (trx) => {
    const added: string[] = [];
    const known: string[] = [];
    // In batches: a statement may hold tens of thousands of rows, and every database limits
    // the parameters of one statement.
    for (let i = 0; i < payments.length; i += 500) {
      const batch = payments.slice(i, i + 500);
      const inserted = await trx
        .insertInto("received_payments")
        .values(batch.map((p) => row(p, now)))
        .onConflict((oc) => oc.column("code").doNothing())
        .returning("code")
        .execute();
      const fresh = new Set(inserted.map((r) => r.code));
      for (const p of batch) (fresh.has(p.code) ? added : known).push(p.code);
    }
    return { added, known };
  });
}

export async function recordPayment(db: Db, payment: ReceivedPayment) {
  const { added } = await recordPayments(db, [payment]);
  return { added: added.length === 1 };
}

export type StatementPreview = {
  rows: number;
  added: number;
  known: number;
  skipped: ParsedStatement["skipped"];
  /** Orders (badge and merch) whose payment code is one of the new payments. */
  matched: number;
  coversFrom: string | null;
  coversTo: string | null;
};

async function knownCodes(db: Db, codes: string[]) {
  const out = new Set<string>();
  for (let i = 0; i < codes.length; i += 500) {
    const rows = await db.selectFrom("received_payments").select("code").where("code", "in", codes.slice(i, i + 500)).execute();
    for (const r of rows) out.add(r.code);
  }
  return out;
}

async function ordersWithCodes(db: Db, codes: string[]) {
  let n = 0;
  for (let i = 0; i < codes.length; i += 500) {
    const part = codes.slice(i, i + 500);
    const row = await db
      .selectFrom("payment_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("code", "in", part)
      .executeTakeFirstOrThrow();
    n += Number(row.n);
  }
  return n;
}

function period(parsed: ParsedStatement) {
  const times = parsed.payments.map((p) => p.paidAt).sort();
  return { coversFrom: times[0] ?? null, coversTo: times.at(-1) ?? null };
}

/** What importing this statement would do, changing nothing. A malformed file throws, naming its line. */
export async function previewStatement(db: Db, csv: string, shortcode: string): Promise<StatementPreview> {
  const parsed = parseStatement(csv, shortcode);
  const codes = parsed.payments.map((p) => p.code);
  const known = await knownCodes(db, codes);
  const fresh = codes.filter((c) => !known.has(c));
  return { rows: parsed.rows, added: fresh.length, known: known.size, skipped: parsed.skipped, matched: await ordersWithCodes(db, fresh), ...period(parsed) };
}

/**
 * Imports a statement: every new payment and the import's record in one transaction (a crash
 * part-way leaves nothing half-imported), then one activity entry. Importing the same or an
 * overlapping statement again adds nothing twice.
 */
export async function importStatement(db: Db, csv: string, shortcode: string, actor: Actor): Promise<StatementPreview> {
  const parsed = parseStatement(csv, shortcode);
  const { coversFrom, coversTo } = period(parsed);
  const result = await db.transaction().execute(async (trx) => {
    const { added, known } = await recordPayments(trx, parsed.payments);
    await trx
      .insertInto("mpesa_imports")
      .values({
        imported_at: nowIso(),
        actor_ip: actor.kind === "staff" ? actor.ip.slice(0, 64) : "",
        rows: parsed.rows,
        added: added.length,
        known: known.length,
        skipped: parsed.skipped.length,
        covers_from: coversFrom,
        covers_to: coversTo,
      })
      .execute();
    return { added, known };
  });
  const matched = await ordersWithCodes(db, result.added);
  await logAction(db, actor, {
    type: "mpesa.import",
    message: `M-Pesa statement imported: ${result.added.length} new payments, ${result.known.length} already known, ${parsed.skipped.length} skipped`,
    meta: { rows: parsed.rows, added: result.added.length, known: result.known.length, skipped: parsed.skipped.length, matched },
  });
  return { rows: parsed.rows, added: result.added.length, known: result.known.length, skipped: parsed.skipped, matched, coversFrom, coversTo };
}

/** Where the payment of an order (its code, amount and time) stands. */
export async function paymentStateFor(db: Db, order: { code: string; amount: number; createdAt: string }): Promise<PaymentStanding> {
  const payment = await db
    .selectFrom("received_payments")
    .select(["amount", "paid_at", "payer_name"])
    .where("code", "=", order.code.toUpperCase())
    .executeTakeFirst();
  const covered = await db
    .selectFrom("mpesa_imports")
    .select(["covers_from", "covers_to"])
    .where("covers_from", "is not", null)
    .where("covers_to", "is not", null)
    .execute();
  const first = await db
    .selectFrom("received_payments")
    .select((eb) => eb.fn.min("received_at").as("at"))
    .where("source", "=", "callback")
    .executeTakeFirst();
  return decidePaymentState({
    order: { amount: order.amount, createdAt: order.createdAt },
    payment: payment ? { amount: payment.amount, paidAt: payment.paid_at, payerName: payment.payer_name } : null,
    covered: covered.map((c) => ({ from: c.covers_from!, to: c.covers_to! })),
    callbacksSince: (first?.at as string | null | undefined) ?? null,
  });
}

/** The newest received payments, for staff. */
export async function listReceivedPayments(db: Db, limit = 200) {
  return db.selectFrom("received_payments").selectAll().orderBy("paid_at", "desc").limit(limit).execute();
}
