import { isDatabaseUnavailable } from "~/lib/database-unavailable";
import { nowIso, type Db } from "~/lib/db.server";
import { lockName } from "~/lib/dialect.server";
import { DomainError } from "~/lib/domain-error";
import { env } from "~/lib/env.server";
import { paymentsChanged } from "~/lib/payment-signal.server";
import { consume } from "~/lib/rate-limit.server";
import { safeEqual } from "~/lib/secrets.server";
import { site } from "~/lib/site";
import { linkReceipt, type OrderKind } from "../payment-codes/receipt-ledger.server";
import { recordPayments } from "../received-payments/received-payments.server";
import { DarajaUnavailable, stkPush, stkQuery } from "./daraja-client.server";
import { mpesaPhone, PHONE_MESSAGE, stateOfResult, type StkState, type StkStatus, type StkView } from "./stk-push";
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
/** A push with no callback after this long is asked about. */
export const QUERY_AFTER_MS = 90_000;
const QUERY_AGAIN_MS = 30_000;
/** Still 'being processed' this long after it was sent: the prompt is gone (they expire in about a minute). */
const GIVE_UP_MS = 10 * 60_000;
/** Daraja unreachable for this long: stop asking (a payment still arrives by C2B or statement). */
const UNREACHABLE_GIVE_UP_MS = 60 * 60_000;

export const stkEnabled = () => env().stk !== null;

export type StkSendResult =
  | { state: "sent"; pushId: number; checkoutRequestId: string }
  | { state: "failed"; pushId: number; message: string }
  | { state: "refused"; message: string; retryAfterSeconds: number };

type Row = Omit<StkPushesTable, "id"> & { id: number };

const minutes = (s: number) => {
  const m = Math.max(1, Math.ceil(s / 60));
  return `${m} minute${m === 1 ? "" : "s"}`;
};

async function orderToPay(db: Db, kind: OrderKind, orderId: string): Promise<{ amount: number; status: string }> {
  const row =
    kind === "badge"
      ? await db.selectFrom("badge_orders").select(["amount", "status"]).where("id", "=", orderId).executeTakeFirst()
      : await db.selectFrom("merch_orders").select(["total as amount", "status"]).where("id", "=", orderId).executeTakeFirst();
  if (!row) throw new DomainError("not_found", "Unknown order.");
  return row;
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
  const paid = await db.selectFrom("stk_pushes").select("id").where("order_id", "=", input.orderId).where("state", "=", "paid").executeTakeFirst();
  if (paid) throw new DomainError("conflict", "This order is already paid by M-Pesa.");

  const address = await consume("stkPush", ADDRESS_RULE, input.ip);
  if (!address.ok) {
    return { state: "refused", retryAfterSeconds: address.retryAfterSeconds, message: `Too many M-Pesa prompts from your connection. Please try again in ${minutes(address.retryAfterSeconds)}, or pay by paybill.` };
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
      const recent = await trx.selectFrom("stk_pushes").select("sent_at").where(column, "=", value).where("sent_at", ">", since).orderBy("sent_at", "desc").limit(PUSHES_PER_WINDOW).execute();
      if (recent.length >= PUSHES_PER_WINDOW) {
        // A phone number is someone's: whoever types it is told neither how many prompts it got
        // nor when, only that the site will not prompt it now.
        if (column === "phone") return { state: "refused" as const, retryAfterSeconds: WINDOW_MS / 1000, message: PHONE_PROMPTS_REFUSED };
        const oldest = Date.parse(recent[recent.length - 1]!.sent_at);
        const retryAfterSeconds = Math.max(1, Math.ceil((oldest + WINDOW_MS - now.getTime()) / 1000));
        return {
          state: "refused" as const,
          retryAfterSeconds,
          message: `${PUSHES_PER_WINDOW} M-Pesa prompts were sent to ${who} in the last 10 minutes. You can send another in ${minutes(retryAfterSeconds)}, or pay by paybill now.`,
        };
      }
    }
    const row = await trx
      .insertInto("stk_pushes")
      .values({ kind: input.kind, order_id: input.orderId, phone, amount: order.amount, client_ip: input.ip.slice(0, 64), state: "sent", result_desc: "", sent_at: at, query_attempts: 0, checkout_request_id: null, merchant_request_id: "", result_code: null, receipt: null, settled_at: null, query_due_at: null, query_claimed_until: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { state: "claimed" as const, id: row.id };
  });
  if (claimed.state === "refused") return claimed;

  const fail = async (desc: string): Promise<StkSendResult> => {
    await db.updateTable("stk_pushes").set({ state: "failed", result_code: null, result_desc: desc.slice(0, 300), settled_at: nowIso() }).where("id", "=", claimed.id).where("state", "=", "sent").execute();
    return { state: "failed", pushId: claimed.id, message: "M-Pesa could not send the prompt right now. Your order is saved: please pay by paybill, or send the prompt again in a minute." };
  };
  try {
    const answer = await stkPush(c, { phone, amount: order.amount, accountReference: input.orderId, description: input.kind === "badge" ? "Event badge" : "Merch order" }, now);
    if (!answer.sent) {
      console.warn(`[stk] push for ${input.orderId} refused by Daraja: ${answer.code} ${answer.description}`);
      return await fail(`Daraja refused the prompt: ${answer.description}`);
    }
    await db
      .updateTable("stk_pushes")
      .set({ checkout_request_id: answer.checkoutRequestId, merchant_request_id: answer.merchantRequestId.slice(0, 100), query_due_at: new Date(Date.now() + QUERY_AFTER_MS).toISOString() })
      .where("id", "=", claimed.id)
      .execute();
    return { state: "sent", pushId: claimed.id, checkoutRequestId: answer.checkoutRequestId };
  } catch (e) {
    if (!(e instanceof DarajaUnavailable)) throw e;
    console.warn(`[stk] push for ${input.orderId} not sent: ${e.message}`);
    return await fail(e.message);
  }
}

/**
 * Settles a prompt from its callback or a query. Only a prompt still waiting changes state (a
 * duplicate, or a callback after the query settled it, changes nothing), except that a receipt
 * M-Pesa names is always kept: a paid callback's receipt is recorded and given to the order.
 */
async function settle(db: Db, row: Row, r: Pick<StkResult, "resultCode" | "resultDesc"> & Partial<StkResult>): Promise<{ changed: boolean }> {
  const state = stateOfResult(r.resultCode);
  const receipt = state === "paid" ? (r.receipt ?? null) : null;
  const now = nowIso();
  const stk = env().stk;
  const changed = await db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable("stk_pushes")
      .set({ state, result_code: r.resultCode, result_desc: r.resultDesc.slice(0, 300), receipt, settled_at: now, query_due_at: null, query_claimed_until: null })
      .where("id", "=", row.id)
      .where((eb) => (receipt ? eb.or([eb("state", "=", "sent"), eb("receipt", "is", null)]) : eb("state", "=", "sent")))
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
    if (state === "paid") paymentsChanged();
  }
  return { changed };
}

const byCheckout = (db: Db, checkoutRequestId: string) => db.selectFrom("stk_pushes").selectAll().where("checkout_request_id", "=", checkoutRequestId).executeTakeFirst();

export type StkCallbackAnswer = { status: number; body: Record<string, string | number> };

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
    return { status: 400, body: { ResultCode: 1, ResultDesc: reading.why } };
  }
  const { result } = reading;
  // A callback racing the push's own answer (the id is stored a moment after Daraja gave it).
  let row = await byCheckout(db, result.checkoutRequestId);
  for (let i = 0; !row && i < 10; i++) {
    await new Promise((r) => setTimeout(r, 200));
    row = await byCheckout(db, result.checkoutRequestId);
  }
  if (!row) {
    console.warn(`[stk] callback for an unknown prompt ${result.checkoutRequestId}: ${(text ?? "").slice(0, 2000)}`);
    return { status: 200, body: { ResultCode: 0, ResultDesc: "Accepted" } };
  }
  await settle(db, row, result);
  return { status: 200, body: { ResultCode: 0, ResultDesc: "Accepted" } };
}

/**
 * Asks Daraja about prompts whose callback has not come QUERY_AFTER_MS after they were sent.
 * Each is claimed first (a lease in its row), so however many processes run this, one asks;
 * the schedule is the rows themselves, so it survives a restart.
 */
export async function askAboutQuietPushes(db: Db, now = new Date()): Promise<{ asked: number; settled: number }> {
  const c = env().stk;
  if (!c) return { asked: 0, settled: 0 };
  const at = now.toISOString();
  const due = await db
    .selectFrom("stk_pushes")
    .select("id")
    .where("state", "=", "sent")
    .where("query_due_at", "<=", at)
    .where((eb) => eb.or([eb("query_claimed_until", "is", null), eb("query_claimed_until", "<", at)]))
    .orderBy("query_due_at")
    .limit(25)
    .execute();
  let asked = 0;
  let settled = 0;
  for (const { id } of due) {
    const won = await db
      .updateTable("stk_pushes")
      .set((eb) => ({ query_claimed_until: new Date(now.getTime() + 60_000).toISOString(), query_attempts: eb("query_attempts", "+", 1) }))
      .where("id", "=", id)
      .where("state", "=", "sent")
      .where((eb) => eb.or([eb("query_claimed_until", "is", null), eb("query_claimed_until", "<", at)]))
      .executeTakeFirst();
    if (Number(won.numUpdatedRows) !== 1) continue;
    const row = (await db.selectFrom("stk_pushes").selectAll().where("id", "=", id).executeTakeFirstOrThrow()) as Row;
    const age = now.getTime() - Date.parse(row.sent_at);
    const later = (ms: number) =>
      db.updateTable("stk_pushes").set({ query_due_at: new Date(now.getTime() + ms).toISOString(), query_claimed_until: null }).where("id", "=", id).execute();
    if (!row.checkout_request_id) {
      // The process stopped between asking Daraja and keeping its answer.
      if ((await settle(db, row, { resultCode: "1037", resultDesc: "The prompt's answer from Daraja was not kept; no result is known." })).changed) settled += 1;
      continue;
    }
    asked += 1;
    try {
      const answer = await stkQuery(c, row.checkout_request_id, now);
      if (answer.kind === "result") {
        if ((await settle(db, row, { resultCode: answer.resultCode, resultDesc: answer.resultDesc })).changed) settled += 1;
      } else if (age > GIVE_UP_MS) {
        if ((await settle(db, row, { resultCode: "1037", resultDesc: `No result from M-Pesa ${Math.round(age / 60_000)} minutes after the prompt.` })).changed) settled += 1;
      } else {
        await later(QUERY_AGAIN_MS);
      }
    } catch (e) {
      if (!(e instanceof DarajaUnavailable)) throw e;
      if (age > UNREACHABLE_GIVE_UP_MS) {
        if ((await settle(db, row, { resultCode: "1037", resultDesc: `M-Pesa could not be asked for an hour (${e.message}).` })).changed) settled += 1;
      } else {
        await later(60_000);
      }
    }
  }
  return { asked, settled };
}

let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;

/** With M-Pesa Express on: looks for quiet prompts every 10 seconds. */
export function startStkQueries(db: Db, everyMs = 10_000) {
  if (!stkEnabled() || timer) return;
  const tick = () => {
    if (running) return;
    running = askAboutQuietPushes(db)
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

export type PromptAnswer = { state: "sent"; checkoutRequestId: string } | { state: "failed"; message: string; retryAfterSeconds?: number };

/**
 * An order paid by prompt is stored: its first prompt goes out now, to the phone typed with it.
 * Daraja down or slow, or a limit reached, is 'failed' with a sentence (the order stands; the
 * supporter pays by paybill). Null for an order paid by code.
 */
export async function promptNewOrder(db: Db, kind: OrderKind, orderId: string, payment: { by: "code" } | { by: "stk"; phone: string }, ip: string): Promise<PromptAnswer | null> {
  if (payment.by !== "stk") return null;
  const sent = await sendStkPush(db, { kind, orderId, phone: payment.phone, ip });
  if (sent.state === "sent") return { state: "sent", checkoutRequestId: sent.checkoutRequestId };
  return sent.state === "refused" ? { state: "failed", message: sent.message, retryAfterSeconds: sent.retryAfterSeconds } : { state: "failed", message: sent.message };
}

/** The order a token opens, with the phone typed for it, or not_found. */
async function ownOrder(db: Db, orderId: string, token: string): Promise<{ kind: OrderKind; phone: string }> {
  const kind: OrderKind = orderId.startsWith("BO-") ? "badge" : "merch";
  const row =
    kind === "badge"
      ? await db.selectFrom("badge_orders").select(["asset_token as token", "phone"]).where("id", "=", orderId).executeTakeFirst()
      : await db.selectFrom("merch_orders").select(["view_token as token", "customer_phone as phone"]).where("id", "=", orderId).executeTakeFirst();
  if (!row || !row.token || !safeEqual(token, row.token)) throw new DomainError("not_found", "Unknown order, or the link is not this order's.");
  return { kind, phone: row.phone };
}

/**
 * 'Send the prompt again', from the order's own page (its token): only to the phone typed with
 * the order, so nobody can aim prompts at a stranger's phone.
 */
export async function resendPrompt(db: Db, input: { orderId: string; token: string; ip: string }): Promise<StkSendResult> {
  const order = await ownOrder(db, input.orderId, input.token);
  if (!mpesaPhone(order.phone)) throw new DomainError("invalid", `This order's phone number is not an M-Pesa number (${PHONE_MESSAGE}) Pay by paybill instead.`);
  return sendStkPush(db, { kind: order.kind, orderId: input.orderId, phone: order.phone, ip: input.ip });
}

/** Prompts refresh a page without JavaScript for this long after they were sent. */
export const REFRESH_FOR_MS = 2 * 60_000;

/** The order page's panel: the latest prompt (or the paid one), or null when none was sent. */
export async function stkPanelOf(db: Db, orderId: string, token: string, now = new Date()) {
  const status = await stkStatusOf(db, orderId);
  if (!status) return null;
  return {
    ...status,
    orderId,
    token,
    orgName: site.name,
    paybill: env().stk?.shortcode ?? env().mpesaShortcode,
    refreshing: status.state === "sent" && now.getTime() - Date.parse(status.sentAt) < REFRESH_FOR_MS,
  };
}

/** 'Send the prompt again' on the order page: null error when sent (or failed: the page says so), else the sentence and its status. */
export async function resendPromptFromPage(db: Db, input: { orderId: string; token: string; ip: string }): Promise<{ error: null } | { error: string; status: number }> {
  try {
    const sent = await resendPrompt(db, input);
    return sent.state === "refused" ? { error: sent.message, status: 429 } : { error: null };
  } catch (e) {
    if (e instanceof DomainError) return { error: e.message, status: e.code === "not_found" ? 404 : e.code === "conflict" ? 409 : 400 };
    throw e;
  }
}
