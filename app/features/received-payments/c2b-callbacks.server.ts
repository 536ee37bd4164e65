import { nowIso, type Db } from "~/lib/db/db.server";
import { env, refusedCallbackWord } from "~/lib/server/env.server";
import { C2B_CALLBACK_PATH, type CallbackRegistration, type SetAsideRow } from "./c2b-callbacks";
import { readC2B, type SetAsideEntry } from "./daraja";
import { phoneForStaff } from "./payment";
import { recordPayment } from "./received-payments.server";

/**
 * Safaricom's Daraja C2B callbacks, whatever the path they came by. Validation is asked before
 * a payment completes: anything but 'Accepted' turns the customer's money back, and no business
 * rule refuses one today, so every validation is accepted (what could not be read is logged).
 * Confirmation is told once, with no retries: a body naming a TransID is kept, as a payment of
 * the ledger or, when it is for another number or cannot be read, set aside for staff.
 */
/** `payment`: the payment the confirmation named, stored now or before (for the account-number rule). */
export type CallbackAnswer = {
  status: number;
  body: Record<string, string | number>;
  headers?: Record<string, string>;
  payment?: { code: string; accountRef: string };
};

const ACCEPTED = { ResultCode: 0, ResultDesc: "Accepted" };
/** Safaricom's documented acceptance, word for word, for what the site could not read. */
const ACCEPTED_ON_DOUBT = { ResultCode: "0", ResultDesc: "Accepted" };
const refused = (why: string): CallbackAnswer => ({ status: 400, body: { ResultCode: 1, ResultDesc: why.slice(0, 200) } });

/** The JSON of a body, or undefined when it is none. */
function parsed(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `text` is the body as received, or null when it could not be read (too large, cut off). */
export function answerValidation(text: string | null): CallbackAnswer {
  const reading = readC2B(parsed(text), env().mpesaShortcodes);
  if (reading.kind === "payment") {
    const p = reading.payment;
    console.log(`[mpesa] validation: ${p.code} KES ${p.amount} to ${p.shortcode} accepted`);
    return { status: 200, body: ACCEPTED };
  }
  const why = reading.kind === "set_aside" ? `${reading.entry.transId}: ${reading.entry.note}` : reading.why;
  console.warn(`[mpesa] validation accepted on doubt (${why}): ${(text ?? "<unreadable body>").slice(0, 2000)}`);
  return { status: 200, body: ACCEPTED_ON_DOUBT };
}

export async function receiveConfirmation(db: Db, text: string | null): Promise<CallbackAnswer> {
  const body = parsed(text);
  if (body === undefined) {
    const why = text === null ? "The body could not be read." : "The body is not JSON.";
    console.warn(`[mpesa] confirmation callback refused: ${why}`);
    return refused(why);
  }
  const reading = readC2B(body, env().mpesaShortcodes);
  if (reading.kind === "not_a_confirmation") {
    console.warn(`[mpesa] confirmation callback refused: ${reading.why}`);
    return refused(reading.why);
  }
  try {
    if (reading.kind === "set_aside") {
      const { entry } = reading;
      await setAside(db, entry, text!);
      console.warn(`[mpesa] confirmation ${entry.transId} set aside for staff: ${entry.note}`);
      // Another number's payment is acknowledged; an unreadable one is told so (it is kept all the same).
      return entry.reason === "other_number" ? { status: 200, body: ACCEPTED } : refused(entry.note);
    }
    const { payment } = reading;
    const { added } = await recordPayment(db, payment);
    const odd = payment.oddParts?.length ? ` (stored on doubt: ${payment.oddParts.map((o) => o.field).join(", ")})` : "";
    console.log(`[mpesa] confirmation ${payment.code} KES ${payment.amount}${added ? "" : " (already known)"}${odd}`);
    return { status: 200, body: ACCEPTED, payment: { code: payment.code, accountRef: payment.accountRef } };
  } catch (e) {
    // The disk, not the caller.
    console.error(`[mpesa] confirmation could not be stored: ${(text ?? "").slice(0, 2000)}`, e);
    return { status: 503, body: { ResultCode: 1, ResultDesc: "Try again later" }, headers: { "Retry-After": "30" } };
  }
}

/** Keeps a confirmation staff must look at, once per TransID, with its body as it came. */
async function setAside(db: Db, entry: SetAsideEntry, body: string) {
  await db
    .insertInto("callbacks_set_aside")
    .values({
      trans_id: entry.transId,
      reason: entry.reason,
      note: entry.note.slice(0, 500),
      shortcode: entry.shortcode,
      amount: entry.amount,
      paid_at: entry.paidAt,
      payer_name: entry.payerName.slice(0, 200),
      payer_phone: entry.payerPhone.slice(0, 128),
      account_ref: entry.accountRef.slice(0, 100),
      body,
      received_at: nowIso(),
    })
    .onConflict((oc) => oc.column("trans_id").doNothing())
    .execute();
}

/** The newest confirmations set aside, for staff (numbers as M-Pesa sent them). */
export async function listCallbacksSetAside(db: Db, limit = 100): Promise<SetAsideRow[]> {
  const rows = await db.selectFrom("callbacks_set_aside").selectAll().orderBy("received_at", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.map((r) => ({
    transId: r.trans_id,
    reason: r.reason,
    note: r.note,
    shortcode: r.shortcode,
    amount: r.amount,
    paidAt: r.paid_at,
    payerName: r.payer_name,
    payerPhone: phoneForStaff(r.payer_phone),
    accountRef: r.account_ref,
    body: r.body,
    receivedAt: r.received_at,
  }));
}

/** What staff register with Safaricom (Daraja's C2B Register URL), and what would stop it working. */
export function callbackRegistration(): CallbackRegistration {
  const e = env();
  const base = `${e.publicUrl}${C2B_CALLBACK_PATH}`;
  const urls = e.mpesaCallbackSecret
    ? { confirmation: `${base}/confirmation/${e.mpesaCallbackSecret}`, validation: `${base}/validation/${e.mpesaCallbackSecret}` }
    : null;
  const warnings: string[] = [];
  if (!e.publicUrl.startsWith("https://")) warnings.push("Safaricom calls only public https:// addresses: set PUBLIC_URL to the site's https address.");
  const word = refusedCallbackWord(e.publicUrl);
  if (word) warnings.push(`PUBLIC_URL contains '${word}', which Safaricom refuses in a callback URL: register the site under another address.`);
  return { shortcodes: e.mpesaShortcodes, urls, warnings };
}
