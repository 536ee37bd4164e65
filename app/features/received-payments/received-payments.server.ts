import crypto from "node:crypto";
import type { Actor } from "~/lib/core/actor";
import { nowIso, type Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { logAction } from "../activity/activity.server";
import { phoneForStaff, type OddPart, type ReceivedPayment } from "./payment";
import type { PreviewReversal, ReceivedPaymentRow, StatementPreview } from "./received-payments";
import type { ParsedStatement, StatementSource } from "./statement";
import { readStatement } from "./statement-file.server";

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
  // Hashed (64 hex characters, C2B v1) or masked (C2B v2): stored whole.
  payer_phone: p.payerPhone.slice(0, 128),
  account_ref: p.accountRef.slice(0, 40),
  shortcode: p.shortcode.slice(0, 10),
  source: p.source,
  raw: JSON.stringify(p.raw),
  received_at: receivedAt,
  odd_parts: p.oddParts?.length ? JSON.stringify(p.oddParts) : "",
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
    // A reversal read before its payment arrived is applied now.
    await applyReversals(trx, added);
    return { added, known };
  });
}

/**
 * Marks these payments reversed where a statement's reversal names them (the earliest reversal
 * wins; a payment already marked keeps its mark).
 */
async function applyReversals(trx: Db, originals: string[]) {
  for (let i = 0; i < originals.length; i += 500) {
    const pending = await trx
      .selectFrom("payment_reversals")
      .select(["code", "original_code", "reversed_at"])
      .where("original_code", "in", originals.slice(i, i + 500))
      .orderBy("reversed_at")
      .orderBy("code")
      .execute();
    const first = new Map<string, (typeof pending)[number]>();
    for (const r of pending) if (!first.has(r.original_code)) first.set(r.original_code, r);
    for (const r of first.values()) {
      await trx
        .updateTable("received_payments")
        .set({ reversed_at: r.reversed_at, reversed_by: r.code })
        .where("code", "=", r.original_code)
        .where("reversed_at", "is", null)
        .execute();
    }
  }
}

/** Keeps a statement's reversals (each once, by its own receipt) and applies those whose payment is known. */
async function recordReversals(trx: Db, reversals: ParsedStatement["reversals"], now: string) {
  for (let i = 0; i < reversals.length; i += 500) {
    await trx
      .insertInto("payment_reversals")
      .values(reversals.slice(i, i + 500).map((r) => ({ code: r.code, original_code: r.original, amount: r.amount, reversed_at: r.at, received_at: now })))
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();
  }
  await applyReversals(trx, [...new Set(reversals.map((r) => r.original))]);
}

type Waiting = { db: Db; payment: ReceivedPayment; done: (added: boolean) => void; failed: (e: unknown) => void };
let waiting: Waiting[] = [];
let writing = false;

/**
 * One payment from a callback, on disk when this resolves (its caller, above this folder, has
 * the orders waiting for it looked at again). Callbacks that arrive together are written in one transaction (one disk flush for
 * all, as databases do a group commit): Safaricom sends them in bursts on event night, and each
 * is acknowledged only once its own row is committed.
 */
export function recordPayment(db: Db, payment: ReceivedPayment): Promise<{ added: boolean }> {
  return new Promise((resolve, reject) => {
    waiting.push({ db, payment, done: (added) => resolve({ added }), failed: reject });
    if (!writing) {
      writing = true;
      setImmediate(() => void writeWaiting());
    }
  });
}

async function writeWaiting() {
  try {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const byDb = new Map<Db, Waiting[]>();
      for (const w of batch) byDb.set(w.db, [...(byDb.get(w.db) ?? []), w]);
      for (const [db, group] of byDb) {
        // The same payment twice in one batch (a quick retry) is one row: the first is 'added'.
        const firstOf = new Map<string, Waiting>();
        for (const w of group) if (!firstOf.has(w.payment.code)) firstOf.set(w.payment.code, w);
        try {
          const { added } = await recordPayments(db, [...firstOf.values()].map((w) => w.payment));
          const fresh = new Set(added);
          for (const w of group) w.done(fresh.has(w.payment.code) && firstOf.get(w.payment.code) === w);
        } catch (e) {
          for (const w of group) w.failed(e);
        }
      }
    }
  } finally {
    writing = false;
  }
}

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

/**
 * The period a statement covers: the one its title states, never its first and last payment
 * rows, and never past the moment it is imported (a period chosen to end next week was
 * exported before then). None without a stated period or a short code of the site's.
 */
function coverage(parsed: ParsedStatement, now: string) {
  const none = { coversFrom: null, coversTo: null, periodSource: null, periodNote: parsed.periodNote };
  if (!parsed.period) return none;
  if (parsed.period.from > now) return { ...none, periodNote: "The statement's period starts after now, so it covers no period yet." };
  const capped = parsed.period.to > now;
  return {
    coversFrom: parsed.period.from,
    coversTo: capped ? now : parsed.period.to,
    periodSource: parsed.period.source,
    periodNote: parsed.periodNote ?? (capped ? "The statement's period ends after now: it covers up to the time of this import." : null),
  };
}

/** The statement's reversals, each saying whether the payment it takes back is known (stored, or in this file). */
async function reversalsOf(db: Db, parsed: ParsedStatement): Promise<PreviewReversal[]> {
  const known = await knownCodes(db, parsed.reversals.map((r) => r.original));
  const inFile = new Set(parsed.payments.map((p) => p.code));
  return parsed.reversals.map((r) => ({ ...r, originalKnown: known.has(r.original) || inFile.has(r.original) }));
}

const described = (parsed: ParsedStatement) => ({ shortcode: parsed.shortcode, dateOrders: parsed.dateOrders });

/** What importing this statement would do, changing nothing. A malformed file throws, naming its line. */
export async function previewStatement(db: Db, source: StatementSource, shortcodes: string | readonly string[]): Promise<StatementPreview> {
  const parsed = await readStatement(source, shortcodes);
  const codes = parsed.payments.map((p) => p.code);
  const known = await knownCodes(db, codes);
  const fresh = codes.filter((c) => !known.has(c));
  return {
    rows: parsed.rows,
    added: fresh.length,
    known: known.size,
    skipped: parsed.skipped,
    matched: await ordersWithCodes(db, fresh),
    ...coverage(parsed, nowIso()),
    ...described(parsed),
    reversals: await reversalsOf(db, parsed),
  };
}

/**
 * Imports a statement: every new payment and the import's record in one transaction (a crash
 * part-way leaves nothing half-imported), then one activity entry. Importing the same or an
 * overlapping statement again adds nothing twice.
 */
export async function importStatement(
  db: Db,
  source: StatementSource,
  shortcodes: string | readonly string[],
  actor: Actor,
  alsoInTransaction?: (trx: Db) => Promise<void>,
): Promise<StatementPreview> {
  const parsed = await readStatement(source, shortcodes);
  const now = nowIso();
  const covers = coverage(parsed, now);
  const result = await db.transaction().execute(async (trx) => {
    if (alsoInTransaction) await alsoInTransaction(trx);
    const { added, known } = await recordPayments(trx, parsed.payments);
    await recordReversals(trx, parsed.reversals, now);
    await trx
      .insertInto("mpesa_imports")
      .values({
        imported_at: now,
        actor_ip: actor.kind === "staff" ? actor.ip.slice(0, 64) : "",
        rows: parsed.rows,
        added: added.length,
        known: known.length,
        skipped: parsed.skipped.length,
        covers_from: covers.coversFrom,
        covers_to: covers.coversTo,
        shortcode: parsed.shortcode ?? "",
        period_source: covers.periodSource ?? "none",
      })
      .execute();
    return { added, known };
  });
  const matched = await ordersWithCodes(db, result.added);
  const reversals = await reversalsOf(db, parsed);
  await logAction(db, actor, {
    type: "mpesa.import",
    message: `M-Pesa statement imported: ${result.added.length} new payments, ${result.known.length} already known, ${parsed.skipped.length} skipped, ${reversals.length} reversals`,
    meta: {
      rows: parsed.rows,
      added: result.added.length,
      known: result.known.length,
      skipped: parsed.skipped.length,
      matched,
      reversals: reversals.map((r) => `${r.code}>${r.original}`).slice(0, 50),
      shortcode: parsed.shortcode ?? "",
      coversFrom: covers.coversFrom ?? "",
      coversTo: covers.coversTo ?? "",
    },
  });
  return {
    rows: parsed.rows,
    added: result.added.length,
    known: result.known.length,
    skipped: parsed.skipped,
    matched,
    ...covers,
    ...described(parsed),
    reversals,
  };
}

/**
 * Typed codes that hold their receipt: an order's claim, unless staff said the receipt is not
 * that order's (payment-codes' receipt ledger).
 */
const heldByCode = (db: Db) =>
  db
    .selectFrom("payment_codes as pc")
    .select(["pc.code", "pc.kind", "pc.order_id"])
    .where((eb) => eb.not(eb.exists(eb.selectFrom("receipt_unlinks as u").select("u.trans_id").whereRef("u.trans_id", "=", "pc.code").whereRef("u.order_id", "=", "pc.order_id"))))
    .as("c");

/**
 * The newest received payments for staff (`unclaimed`: only those no order holds, by its typed
 * code or a link), numbers as M-Pesa sent them, each with the order that holds it and how.
 */
export async function listReceivedPayments(db: Db, opts: { unclaimed?: boolean; limit?: number } = {}): Promise<ReceivedPaymentRow[]> {
  let q = db
    .selectFrom("received_payments as p")
    .leftJoin(heldByCode(db), "c.code", "p.code")
    .leftJoin("order_receipts as r", "r.trans_id", "p.code")
    .select(["p.code", "p.amount", "p.paid_at", "p.payer_name", "p.payer_phone", "p.account_ref", "p.source", "p.odd_parts", "p.reversed_at", "p.reversed_by", "c.kind", "c.order_id"])
    .select(["r.kind as link_kind", "r.order_id as link_order_id", "r.matched_by"])
    .orderBy("p.paid_at", "desc")
    .orderBy("p.code")
    .limit(opts.limit ?? 200);
  if (opts.unclaimed) q = q.where("c.code", "is", null).where("r.trans_id", "is", null);
  const rows = await q.execute();
  return rows.map((r) => ({
    code: r.code,
    amount: r.amount,
    paidAt: r.paid_at,
    payerName: r.payer_name,
    payerPhone: phoneForStaff(r.payer_phone),
    accountRef: r.account_ref,
    source: r.source,
    order:
      r.link_kind && r.link_order_id
        ? { kind: r.link_kind, id: r.link_order_id, matchedBy: r.matched_by ?? "staff" }
        : r.kind && r.order_id
          ? { kind: r.kind as "badge" | "merch", id: r.order_id, matchedBy: "code" as const }
          : null,
    oddParts: r.odd_parts ? (JSON.parse(r.odd_parts) as OddPart[]) : [],
    ...(r.reversed_at && r.reversed_by ? { reversed: { by: r.reversed_by, at: r.reversed_at } } : {}),
  }));
}

export async function countReceivedPayments(db: Db) {
  const row = await db
    .selectFrom("received_payments as p")
    .leftJoin(heldByCode(db), "c.code", "p.code")
    .leftJoin("order_receipts as r", "r.trans_id", "p.code")
    .select((eb) => [eb.fn.countAll<number>().as("all"), eb.fn.count<number>("c.code").as("claimed"), eb.fn.count<number>("r.trans_id").as("linked")])
    .executeTakeFirstOrThrow();
  return { all: Number(row.all), unclaimed: Number(row.all) - Number(row.claimed) - Number(row.linked) };
}

/** Past statement imports, newest first. */
export async function listImports(db: Db, limit = 50) {
  return db.selectFrom("mpesa_imports").selectAll().orderBy("id", "desc").limit(limit).execute();
}

/**
 * A statement staff uploaded, kept until they confirm its preview (or a day passes): the
 * confirm step names it by a random id, so it works without JavaScript and in any process.
 */
export async function saveStatementDraft(db: Db, source: StatementSource, fileName: string): Promise<string> {
  const id = crypto.randomBytes(12).toString("base64url");
  const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
  await db.deleteFrom("mpesa_statement_drafts").where("created_at", "<", dayAgo).execute();
  const file =
    typeof source === "string" ? { csv: source, xlsx_base64: "" } : { csv: "", xlsx_base64: Buffer.from(source.xlsx).toString("base64") };
  await db.insertInto("mpesa_statement_drafts").values({ id, created_at: nowIso(), file_name: fileName.slice(0, 200), ...file }).execute();
  return id;
}

export const DRAFT_GONE = "That statement preview has expired or was already imported. Upload the file again.";

/** Imports a draft once: the draft is deleted in the same transaction as the import. */
export async function importStatementDraft(db: Db, id: string, shortcodes: string | readonly string[], actor: Actor) {
  const draft = await db.selectFrom("mpesa_statement_drafts").selectAll().where("id", "=", id).executeTakeFirst();
  if (!draft) throw new DomainError("not_found", DRAFT_GONE);
  const source: StatementSource = draft.xlsx_base64 ? { xlsx: Buffer.from(draft.xlsx_base64, "base64") } : draft.csv;
  return importStatement(db, source, shortcodes, actor, async (trx) => {
    const gone = await trx.deleteFrom("mpesa_statement_drafts").where("id", "=", id).executeTakeFirst();
    if (Number(gone.numDeletedRows) !== 1) throw new DomainError("conflict", DRAFT_GONE);
  });
}
