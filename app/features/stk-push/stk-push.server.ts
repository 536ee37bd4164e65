import { nowIso, type Db } from "~/lib/db/db.server";
import { lockName } from "~/lib/db/dialect.server";
import { DomainError } from "~/lib/core/domain-error";
import { env } from "~/lib/server/env.server";
import { consume } from "~/lib/server/rate-limit.server";
import { ORDER_KINDS } from "../orders/order-kinds";
import { findOrder } from "../orders/orders.server";
import { linkReceipt, type OrderKind } from "../payment-codes/receipt-ledger.server";
import { recordPayments } from "../received-payments/received-payments.server";
import { DarajaUnavailable, pushTimeLimitMs, stkPush, stkQuery } from "./daraja-client.server";
import { INVALID_PHONE_CODE, INVALID_PHONE_WORDS, REFUSED_CODE, mpesaPhone, PHONE_MESSAGE, stateOfResult, type StkState, type StkStatus, type StkView, type UnsettledPrompt } from "./stk-push";
import { readStkCallback, type StkResult } from "./stk-callback";
import type { StkPushesTable } from "./stk-push.tables";

/**
 * M-Pesa Express: the site asks Safaricom to show a PIN prompt on the phone the supporter typed
 * for their own order, for the order's amount as the server priced it, with the order's
 * reference as the account number. The result comes by callback; a push with no callback is
 * asked about (stkpushquery) on a schedule kept in the database. A paid prompt's receipt joins
 * the order through the receipt ledger (matched by account: the prompt's account number is the
 * order's reference), so a receipt still pays one order and AUTO_APPROVE_VERIFIED applies.
 */

/** At most this many prompts per order, and per phone, in WINDOW_MS. */
export const PUSHES_PER_WINDOW = 3;
export const WINDOW_MS = 10 * 60_000;
export const PHONE_PROMPTS_REFUSED = "We cannot send an M-Pesa prompt to this phone number right now. Please pay by paybill now, or try again later.";
/** Per address (several orders from one connection): a looser net over the two above. */
export const ADDRESS_RULE = { points: 10, durationSeconds: 600 };
/** A push with no callback after this long is asked about (due from the moment its row is written). */
export const QUERY_AFTER_MS = 90_000;
/** 'Being processed' or Daraja unreachable: asked again after 30 s, doubling, at most every 30 minutes... */
const QUERY_AGAIN_MS = 30_000;
const QUERY_AGAIN_MAX_MS = 30 * 60_000;
/** ...for this long after the push; then it stays 'unknown', listed for staff (a payment still arrives by C2B or statement). */
export const KEEP_ASKING_MS = 24 * 60 * 60_000;
/** A prompt still open this long after it was sent (they expire in about a minute) is 'unknown' until M-Pesa says. */
const PROMPT_LIFE_MS = 2 * 60_000;
/** After a push whose result is unknown, no new prompt for this long: the payer checks their messages first. */
export const UNKNOWN_HOLD_MS = 2 * 60_000;
/** An unknown callback is matched to a prompt sent to its phone for its amount this long before it. */
export const MATCH_WINDOW_MS = 60 * 60_000;

export const ALREADY_PAID = "This order is already paid";
export const UNKNOWN_SENT_MESSAGE =
  "M-Pesa did not answer in time, so we do not know whether the prompt reached your phone. If you entered your PIN, the payment will show on your order page. Please check your M-Pesa messages before paying again.";

export const stkEnabled = () => env().stk !== null;

export type StkSendResult =
  | { state: "sent"; pushId: number; checkoutRequestId: string }
  | { state: "unknown"; pushId: number; message: string }
  | { state: "failed"; pushId: number; message: string }
  | { state: "refused"; message: string; retryAfterSeconds: number };

type Row = Omit<StkPushesTable, "id"> & { id: number };

export const minutes = (s: number) => {
  const m = Math.max(1, Math.ceil(s / 60));
  return `${m} minute${m === 1 ? "" : "s"}`;
};

export async function orderToPay(db: Db, kind: OrderKind, orderId: string): Promise<{ amount: number; status: string; code: string; createdAt: string }> {
  const order = await findOrder(db, kind, orderId);
  if (!order) throw new DomainError("not_found", "Unknown order.");
  return { amount: order.amount, status: order.status, code: order.paymentReference, createdAt: order.createdAt };
}

/**
 * A prompt the site itself refused (a limit): kept as the order's latest, 'failed' with the
 * site's own code REFUSED_CODE and the sentence the payer was told, so the order page says it
 * (with the paybill and account number). Never counted toward the limits: Daraja was not asked.
 */
async function keepRefusal(db: Db, kind: OrderKind, orderId: string, phone: string, amount: number, ip: string, message: string, now: Date) {
  const at = now.toISOString();
  await db
    .insertInto("stk_pushes")
    .values({ kind, order_id: orderId, phone, amount, client_ip: ip.slice(0, 64), state: "failed", result_desc: message.slice(0, 300), sent_at: at, query_attempts: 0, checkout_request_id: null, merchant_request_id: "", result_code: REFUSED_CODE, receipt: null, settled_at: at, query_due_at: null, query_claimed_until: null })
    .execute();
}

/**
 * Sends a prompt for an order to `phone` (as typed: 07…, 01…, +254…, 254…). A refusal (a limit)
 * says when to try again; Daraja down, slow or refusing is 'failed' with a sentence, and the
 * order stands (it is stored before this is called).
 */
export async function sendStkPush(db: Db, input: { kind: OrderKind; orderId: string; phone: string; ip: string }, now = new Date()): Promise<StkSendResult> {
  const c = env().stk;
  if (!c) throw new DomainError("invalid", "Paying with an M-Pesa prompt is not available: please pay by paybill.");
  const phone = mpesaPhone(input.phone);
  if (!phone) throw new DomainError("invalid", PHONE_MESSAGE, "phone");
  const order = await orderToPay(db, input.kind, input.orderId);
  if (order.status !== "pending") throw new DomainError("conflict", "This order is no longer waiting for payment.");

  const address = await consume("stkPush", ADDRESS_RULE, input.ip);
  if (!address.ok) {
    const message = `Too many M-Pesa prompts from your connection. Please try again in ${minutes(address.retryAfterSeconds)}, or pay by paybill.`;
    await keepRefusal(db, input.kind, input.orderId, phone, order.amount, input.ip, message, now);
    return { state: "refused", retryAfterSeconds: address.retryAfterSeconds, message };
  }
  const at = now.toISOString();
  const since = new Date(now.getTime() - WINDOW_MS).toISOString();
  const claimed = await db.transaction().execute(async (trx) => {
    await lockName(trx, `stk-order:${input.orderId}`);
    await lockName(trx, `stk-phone:${phone}`);
    for (const [column, value, who] of [
      ["order_id", input.orderId, "this order"],
      ["phone", phone, "this phone number"],
    ] as const) {
      // Only prompts Daraja accepted (or may have: no answer yet, or none in time) count.
      const recent = await trx
        .selectFrom("stk_pushes")
        .select("sent_at")
        .where(column, "=", value)
        .where("sent_at", ">", since)
        .where((eb) => eb.or([eb("checkout_request_id", "is not", null), eb("state", "in", ["sent", "unknown"])]))
        .orderBy("sent_at", "desc")
        .limit(PUSHES_PER_WINDOW)
        .execute();
      if (recent.length >= PUSHES_PER_WINDOW) {
        // A phone number is someone's: whoever types it is told neither how many prompts it got
        // nor when, only that the site will not prompt it now.
        if (column === "phone") return { state: "refused" as const, retryAfterSeconds: WINDOW_MS / 1000, message: PHONE_PROMPTS_REFUSED };
        const oldest = Date.parse(recent[recent.length - 1]!.sent_at);
        const retryAfterSeconds = Math.max(1, Math.ceil((oldest + WINDOW_MS - now.getTime()) / 1000));
        return {
          state: "refused" as const,
          retryAfterSeconds,
          message: `M-Pesa accepted ${PUSHES_PER_WINDOW} prompts for ${who} in the last 10 minutes. You can send another in ${minutes(retryAfterSeconds)}, or pay by paybill now.`,
        };
      }
    }
    const row = await trx
      .insertInto("stk_pushes")
      .values({ kind: input.kind, order_id: input.orderId, phone, amount: order.amount, client_ip: input.ip.slice(0, 64), state: "sent", result_desc: "", sent_at: at, query_attempts: 0, checkout_request_id: null, merchant_request_id: "", result_code: null, receipt: null, settled_at: null, query_due_at: new Date(now.getTime() + QUERY_AFTER_MS).toISOString(), query_claimed_until: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { state: "claimed" as const, id: row.id };
  });
  if (claimed.state === "refused") {
    await keepRefusal(db, input.kind, input.orderId, phone, order.amount, input.ip, claimed.message, now);
    return claimed;
  }

  // Daraja said no prompt went out: nothing to ask about.
  const fail = async (desc: string, code: string | null = null): Promise<StkSendResult> => {
    await db
      .updateTable("stk_pushes")
      .set({ state: "failed", result_code: code, result_desc: desc.slice(0, 300), settled_at: nowIso(), query_due_at: null })
      .where("id", "=", claimed.id)
      .where("state", "=", "sent")
      .execute();
    const message =
      code === INVALID_PHONE_CODE
        ? INVALID_PHONE_WORDS
        : "M-Pesa could not send the prompt right now. Your order is saved: please pay by paybill, or send the prompt again in a minute.";
    return { state: "failed", pushId: claimed.id, message };
  };
  try {
    const answer = await stkPush(c, { phone, amount: order.amount, accountReference: input.orderId, description: ORDER_KINDS[input.kind].promptDescription }, now);
    if (!answer.sent) {
      console.warn(`[stk] push for ${input.orderId} refused by Daraja: ${answer.code} ${answer.description}`);
      const invalidPhone = answer.code === INVALID_PHONE_CODE && /phone/i.test(answer.description);
      return await fail(`Daraja refused the prompt: ${answer.description}`, invalidPhone ? INVALID_PHONE_CODE : null);
    }
    await db
      .updateTable("stk_pushes")
      .set({ checkout_request_id: answer.checkoutRequestId, merchant_request_id: answer.merchantRequestId.slice(0, 100) })
      .where("id", "=", claimed.id)
      .execute();
    // Its callback may have come first (kept, waiting for this id).
    const held = await giveHeldCallback(db, claimed.id, answer.checkoutRequestId);
    if (held) console.log(`[stk] ${input.orderId}: its callback had come before the push's answer`);
    return { state: "sent", pushId: claimed.id, checkoutRequestId: answer.checkoutRequestId };
  } catch (e) {
    if (!(e instanceof DarajaUnavailable)) throw e;
    if (!e.maybeActed) {
      console.warn(`[stk] push for ${input.orderId} not sent: ${e.message}`);
      return await fail(e.message);
    }
    // The push may be on the phone: money may be taken. Its callback (matched by phone and
    // amount), a C2B confirmation or a statement will say; until then nobody is told it failed.
    console.warn(`[stk] push for ${input.orderId}: result unknown (${e.message})`);
    await db
      .updateTable("stk_pushes")
      .set({ state: "unknown", result_desc: `No answer from Daraja: ${e.message}`.slice(0, 300) })
      .where("id", "=", claimed.id)
      .where("state", "=", "sent")
      .execute();
    return { state: "unknown", pushId: claimed.id, message: UNKNOWN_SENT_MESSAGE };
  }
}

/**
 * Settles a prompt from its callback or a query. Only a prompt still waiting changes state (a
 * duplicate, or a callback after the query settled it, changes nothing), except that a receipt
 * M-Pesa names is always kept: a paid callback's receipt is recorded and given to the order.
 */
async function settle(db: Db, row: Row, r: Pick<StkResult, "resultCode" | "resultDesc"> & Partial<StkResult>): Promise<{ changed: boolean; paid: boolean }> {
  const state = stateOfResult(r.resultCode);
  const receipt = state === "paid" ? (r.receipt ?? null) : null;
  const now = nowIso();
  const stk = env().stk;
  const changed = await db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable("stk_pushes")
      .set({ state, result_code: r.resultCode, result_desc: r.resultDesc.slice(0, 300), receipt, settled_at: now, query_due_at: null, query_claimed_until: null })
      .where("id", "=", row.id)
      .where((eb) => (receipt ? eb.or([eb("state", "in", ["sent", "unknown"]), eb("receipt", "is", null)]) : eb("state", "in", ["sent", "unknown"])))
      .executeTakeFirst();
    const changed = Number(moved.numUpdatedRows) === 1;
    if (changed && receipt) {
      await recordPayments(trx, [
        {
          code: receipt,
          amount: r.amount ?? row.amount,
          paidAt: r.paidAt ?? now,
          payerName: "",
          payerPhone: r.phone || row.phone,
          accountRef: row.order_id,
          shortcode: stk?.shortcode ?? env().mpesaShortcode,
          source: "callback",
          raw: { stkCallback: { CheckoutRequestID: r.checkoutRequestId ?? row.checkout_request_id, MerchantRequestID: r.merchantRequestId ?? row.merchant_request_id, ResultCode: r.resultCode, ResultDesc: r.resultDesc } },
        },
      ]);
      try {
        await linkReceipt(trx, { transId: receipt, kind: row.kind, orderId: row.order_id, matchedBy: "account", linkedBy: "stk" });
      } catch (e) {
        if (!(e instanceof DomainError && e.code === "conflict")) throw e;
        console.error(`[stk] receipt ${receipt} of ${row.order_id}'s prompt is held by another order: ${e.message}`);
      }
    }
    return changed;
  });
  if (changed) {
    console.log(`[stk] ${row.order_id}: ${state}${receipt ? ` (${receipt})` : ""} (ResultCode ${r.resultCode})`);
  }
  return { changed, paid: changed && state === "paid" };
}

const byCheckout = (db: Db, checkoutRequestId: string) => db.selectFrom("stk_pushes").selectAll().where("checkout_request_id", "=", checkoutRequestId).executeTakeFirst();

/** `paid`: a payment was stored (the caller follows it up: what follows a payment is above this folder). */
export type StkCallbackAnswer = { status: number; body: Record<string, string | number>; paid: boolean };

/** POST /api/pay/stk/{secret}: `text` is the body as received, or null when it could not be read. */
export async function receiveStkCallback(db: Db, text: string | null): Promise<StkCallbackAnswer> {
  let body: unknown;
  try {
    body = text === null ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  const reading = readStkCallback(body);
  if (reading.kind === "unreadable") {
    console.warn(`[stk] callback refused (${reading.why}): ${(text ?? "<unreadable body>").slice(0, 2000)}`);
    return { status: 400, body: { ResultCode: 1, ResultDesc: reading.why }, paid: false };
  }
  const { result } = reading;
  const row = await byCheckout(db, result.checkoutRequestId);
  if (!row) {
    // Before the push's answer was kept, after a restart, or not the site's: kept, never only logged.
    const { paid } = await holdCallback(db, result, text ?? "");
    return { status: 200, body: { ResultCode: 0, ResultDesc: "Accepted" }, paid };
  }
  const { paid } = await settle(db, row, result);
  return { status: 200, body: { ResultCode: 0, ResultDesc: "Accepted" }, paid };
}

/**
 * A callback no prompt row holds yet. It is kept; a paid one's receipt goes into the ledger at
 * once (with its amount, phone and time) and to the order whose prompt went to that phone for
 * that amount in the hour before (one order only: with two candidates, or none, the receipt is
 * left unclaimed for staff to link). When the push's answer is kept later, the prompt takes it.
 */
async function holdCallback(db: Db, r: StkResult, body: string): Promise<{ paid: boolean }> {
  const at = nowIso();
  const phone = mpesaPhone(r.phone) ?? r.phone;
  await db
    .insertInto("stk_callbacks_held")
    .values({
      checkout_request_id: r.checkoutRequestId,
      merchant_request_id: r.merchantRequestId,
      result_code: r.resultCode,
      result_desc: r.resultDesc,
      receipt: r.receipt,
      amount: r.amount,
      phone,
      paid_at: r.paidAt,
      body: body.slice(0, 16 * 1024),
      received_at: at,
      push_id: null,
    })
    .onConflict((oc) => oc.column("checkout_request_id").doNothing())
    .execute();
  const paid = stateOfResult(r.resultCode) === "paid" && r.receipt && r.amount !== null;
  if (!paid) {
    console.warn(`[stk] callback for an unknown prompt ${r.checkoutRequestId} kept (ResultCode ${r.resultCode})`);
    return { paid: false };
  }
  await recordPayments(db, [
    {
      code: r.receipt!,
      amount: r.amount!,
      paidAt: r.paidAt ?? at,
      payerName: "",
      payerPhone: phone,
      accountRef: "",
      shortcode: env().stk?.shortcode ?? env().mpesaShortcode,
      source: "callback",
      raw: { stkCallback: { CheckoutRequestID: r.checkoutRequestId, MerchantRequestID: r.merchantRequestId, ResultCode: r.resultCode, ResultDesc: r.resultDesc } },
    },
  ]);
  const since = new Date(Date.parse(r.paidAt ?? at) - MATCH_WINDOW_MS).toISOString();
  const candidates = await db
    .selectFrom("stk_pushes")
    .selectAll()
    .where("phone", "=", phone)
    .where("amount", "=", r.amount!)
    .where("sent_at", ">=", since)
    // Prompts whose own id is not known: the push's answer is late, never came, or was not kept.
    .where("checkout_request_id", "is", null)
    .where("state", "in", ["sent", "unknown"])
    .orderBy("id", "desc")
    .execute();
  const orders = new Set(candidates.map((c) => c.order_id));
  if (orders.size !== 1) {
    console.warn(`[stk] paid callback ${r.checkoutRequestId} (${r.receipt}, KES ${r.amount}) matches ${orders.size} orders: left unclaimed for staff`);
    return { paid: true };
  }
  const row = candidates[0] as Row;
  await settle(db, row, r);
  await db.updateTable("stk_callbacks_held").set({ push_id: row.id }).where("checkout_request_id", "=", r.checkoutRequestId).execute();
  console.log(`[stk] paid callback ${r.checkoutRequestId} matched by phone and amount to ${row.order_id}`);
  return { paid: true };
}

/** The push's answer is kept: a callback that came before it settles the prompt now. */
async function giveHeldCallback(db: Db, pushId: number, checkoutRequestId: string): Promise<boolean> {
  const held = await db.selectFrom("stk_callbacks_held").selectAll().where("checkout_request_id", "=", checkoutRequestId).executeTakeFirst();
  if (!held) return false;
  const row = (await db.selectFrom("stk_pushes").selectAll().where("id", "=", pushId).executeTakeFirstOrThrow()) as Row;
  await settle(db, row, {
    checkoutRequestId,
    merchantRequestId: held.merchant_request_id,
    resultCode: held.result_code,
    resultDesc: held.result_desc,
    receipt: held.receipt,
    amount: held.amount,
    paidAt: held.paid_at,
    phone: held.phone,
  });
  await db.updateTable("stk_callbacks_held").set({ push_id: pushId }).where("id", "=", held.id).execute();
  return true;
}

/**
 * Asks Daraja about prompts whose callback has not come QUERY_AFTER_MS after they were sent.
 * Each is claimed first (a lease in its row), so however many processes run this, one asks;
 * the schedule is the rows themselves (due from the moment a row is written), so it survives a
 * restart anywhere in a push. 'Being processed' and Daraja unreachable are asked again with
 * back-off for KEEP_ASKING_MS; only M-Pesa's own result settles a prompt: one it never gives
 * stays 'unknown' (listed for staff; a C2B confirmation or a statement still pays the order).
 * `paid`: prompts found paid, whose payments are stored (the caller follows them up). The loop
 * that runs this is features/reconciliation/stk-queries.server.ts.
 */
export async function askAboutQuietPushes(db: Db, now = new Date()): Promise<{ asked: number; settled: number; paid: number }> {
  const c = env().stk;
  if (!c) return { asked: 0, settled: 0, paid: 0 };
  const at = now.toISOString();
  const due = await db
    .selectFrom("stk_pushes")
    .select("id")
    .where("state", "in", ["sent", "unknown"])
    .where("query_due_at", "<=", at)
    .where((eb) => eb.or([eb("query_claimed_until", "is", null), eb("query_claimed_until", "<", at)]))
    .orderBy("query_due_at")
    .limit(25)
    .execute();
  let asked = 0;
  let settled = 0;
  let paid = 0;
  for (const { id } of due) {
    const won = await db
      .updateTable("stk_pushes")
      .set((eb) => ({ query_claimed_until: new Date(now.getTime() + 60_000).toISOString(), query_attempts: eb("query_attempts", "+", 1) }))
      .where("id", "=", id)
      .where("state", "in", ["sent", "unknown"])
      .where((eb) => eb.or([eb("query_claimed_until", "is", null), eb("query_claimed_until", "<", at)]))
      .executeTakeFirst();
    if (Number(won.numUpdatedRows) !== 1) continue;
    const row = (await db.selectFrom("stk_pushes").selectAll().where("id", "=", id).executeTakeFirstOrThrow()) as Row;
    const age = now.getTime() - Date.parse(row.sent_at);
    /** Not settled yet: 'unknown' once the prompt is surely gone, asked again later (or no more after KEEP_ASKING_MS). */
    const later = (why: string) => {
      const backOff = Math.min(QUERY_AGAIN_MAX_MS, QUERY_AGAIN_MS * 2 ** Math.max(0, row.query_attempts - 1));
      const stop = age >= KEEP_ASKING_MS || !row.checkout_request_id;
      return db
        .updateTable("stk_pushes")
        .set({
          ...(age >= PROMPT_LIFE_MS || !row.checkout_request_id ? { state: "unknown" as const } : {}),
          ...(row.state === "sent" || stop ? { result_desc: why.slice(0, 300) } : {}),
          query_due_at: stop ? null : new Date(now.getTime() + backOff).toISOString(),
          query_claimed_until: null,
        })
        .where("id", "=", id)
        .where("state", "in", ["sent", "unknown"])
        .execute();
    };
    if (!row.checkout_request_id) {
      if (age < pushTimeLimitMs() + 30_000) {
        // The push may still be waiting for its answer.
        await db.updateTable("stk_pushes").set({ query_due_at: new Date(now.getTime() + QUERY_AGAIN_MS).toISOString(), query_claimed_until: null }).where("id", "=", id).execute();
        continue;
      }
      // The process stopped between asking Daraja and keeping its answer, or the answer never
      // came: nothing to ask M-Pesa about. Its callback (by phone and amount), C2B or a statement will tell.
      await later("Daraja's answer to the push was not kept: whether a prompt went out is not known.");
      continue;
    }
    asked += 1;
    try {
      // Signed with the wall clock (Daraja refuses a timestamp far from its own), whatever `now` the schedule runs at.
      const answer = await stkQuery(c, row.checkout_request_id);
      if (answer.kind === "result") {
        const done = await settle(db, row, { resultCode: answer.resultCode, resultDesc: answer.resultDesc });
        if (done.changed) settled += 1;
        if (done.paid) paid += 1;
      } else {
        await later(`M-Pesa: ${answer.description}`);
      }
    } catch (e) {
      if (!(e instanceof DarajaUnavailable)) throw e;
      await later(`M-Pesa could not be asked: ${e.message}`);
    }
  }
  return { asked, settled, paid };
}

/** Prompts nobody knows the end of (staff look at these, with the order's phone and amount). */
export async function unknownPrompts(db: Db, limit = 200): Promise<UnsettledPrompt[]> {
  return db
    .selectFrom("stk_pushes")
    .select(["order_id as orderId", "kind", "phone", "amount", "sent_at as sentAt", "result_desc as note", "query_attempts as queries"])
    .where("state", "=", "unknown")
    .orderBy("sent_at", "desc")
    .limit(limit)
    .execute();
}

const viewOf = (r: Pick<Row, "state" | "sent_at" | "result_code" | "result_desc">): StkView => ({ state: r.state as StkState, sentAt: r.sent_at, resultCode: r.result_code, resultDesc: r.result_desc });

/** Each order's latest prompt, for staff lists (orders without one are absent). */
export async function latestStkOf(db: Db, orderIds: string[]): Promise<Map<string, StkView>> {
  const out = new Map<string, StkView>();
  for (let i = 0; i < orderIds.length; i += 500) {
    const rows = await db
      .selectFrom("stk_pushes")
      .select(["order_id", "state", "sent_at", "result_code", "result_desc", "id"])
      .where("order_id", "in", orderIds.slice(i, i + 500))
      .orderBy("id")
      .execute();
    // The paid prompt if there is one, else the newest.
    for (const r of rows) if (out.get(r.order_id)?.state !== "paid") out.set(r.order_id, viewOf(r));
  }
  return out;
}

/** The order page's view of its latest prompt, or null when none was sent. */
export async function stkStatusOf(db: Db, orderId: string): Promise<StkStatus | null> {
  const rows = await db.selectFrom("stk_pushes").selectAll().where("order_id", "=", orderId).orderBy("id", "desc").limit(20).execute();
  const r = rows.find((x) => x.state === "paid") ?? rows[0];
  if (!r) return null;
  return { ...viewOf(r), receipt: r.receipt, amount: r.amount, phone: r.phone, settledAt: r.settled_at };
}

export type PromptAnswer =
  | { state: "sent"; checkoutRequestId: string }
  | { state: "unknown"; message: string }
  | { state: "refused"; message: string; retryAfterSeconds: number }
  | { state: "failed"; message: string };

/**
 * An order paid by prompt is stored: its first prompt goes out now, to the phone typed with it.
 * Daraja down or slow, or a limit reached, is 'failed' with a sentence (the order stands; the
 * supporter pays by paybill). Null for an order paid by code.
 */
export async function promptNewOrder(db: Db, kind: OrderKind, orderId: string, payment: { by: "code" } | { by: "stk"; phone: string }, ip: string): Promise<PromptAnswer | null> {
  if (payment.by !== "stk") return null;
  const sent = await sendStkPush(db, { kind, orderId, phone: payment.phone, ip });
  return answerOf(sent);
}

/** What the JSON API answers of a push: its state, and the sentence or the prompt's id. */
export function answerOf(sent: StkSendResult): PromptAnswer {
  if (sent.state === "sent") return { state: "sent", checkoutRequestId: sent.checkoutRequestId };
  if (sent.state === "refused") return { state: "refused", message: sent.message, retryAfterSeconds: sent.retryAfterSeconds };
  return { state: sent.state, message: sent.message };
}

