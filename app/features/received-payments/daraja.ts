import { MPESA_CODE, nairobiToIso, type OddPart, type ReceivedPayment } from "./payment";

/**
 * Reading Daraja's C2B confirmation (and validation) body as Safaricom really sends it: the
 * MSISDN hashed (v1, 64 hex characters) or masked (v2, '2547 ***** 126'), optional fields
 * empty, the text "null" or JSON null, amounts as strings ("5.00", "1500") or numbers.
 * Confirmations are told once, so the reading is lenient: whatever names a TransID is kept,
 * either as a payment (odd fields kept as they came, for staff) or set aside for staff.
 */
export type C2BReading =
  /** A payment into one of the site's numbers, for the ledger. */
  | { kind: "payment"; payment: ReceivedPayment }
  /** Names a TransID but is no payment of ours (another number) or cannot be read: kept for staff. */
  | { kind: "set_aside"; entry: SetAsideEntry }
  /** No TransID, or not a JSON object: not a confirmation at all. */
  | { kind: "not_a_confirmation"; why: string };

export type SetAsideEntry = {
  transId: string;
  reason: "other_number" | "unreadable";
  /** Why, in a sentence staff read. */
  note: string;
  shortcode: string;
  amount: number | null;
  paidAt: string | null;
  payerName: string;
  payerPhone: string;
  accountRef: string;
};

/** Longer than the staff lists keep in their column; the record keeps them whole. */
const LIST_LIMITS: Record<string, number> = { BillRefNumber: 40, FirstName: 60, MiddleName: 60, LastName: 60, MSISDN: 128 };

/** A plausible receipt number: letters and digits (the usual ten, a few more or fewer on doubt). */
const RECEIPT_ON_DOUBT = /^[A-Z0-9]{6,20}$/;

/** Reads a parsed JSON body. `shortcodes` are the site's numbers (MPESA_SHORTCODE). */
export function readC2B(body: unknown, shortcodes: readonly string[]): C2BReading {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { kind: "not_a_confirmation", why: "body: not a C2B confirmation (a JSON object with a TransID)" };
  }
  const fields = body as Record<string, unknown>;
  const odd: OddPart[] = [];
  /** A field as text: null, "" and "null" alike are empty; numbers as written; anything else is odd. */
  const text = (name: string): string => {
    const v = fields[name];
    if (v === undefined || v === null) return "";
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
    if (typeof v !== "string") {
      odd.push({ field: name, value: v, note: "not text; left out" });
      return "";
    }
    const t = v.trim();
    return t.toLowerCase() === "null" ? "" : t;
  };

  const transId = text("TransID").toUpperCase();
  if (!transId) return { kind: "not_a_confirmation", why: "TransID: missing, so this is not a C2B confirmation" };

  const problems: string[] = [];
  if (!RECEIPT_ON_DOUBT.test(transId)) problems.push(`TransID '${transId.slice(0, 40)}' is not a receipt number`);
  else if (!MPESA_CODE.test(transId)) odd.push({ field: "TransID", value: fields.TransID, note: "not the usual ten letters and digits" });

  const time = text("TransTime");
  const paidAt = /^\d{14}$/.test(time)
    ? nairobiToIso(+time.slice(0, 4), +time.slice(4, 6), +time.slice(6, 8), +time.slice(8, 10), +time.slice(10, 12), +time.slice(12, 14))
    : null;
  if (!paidAt) problems.push(`TransTime '${time.slice(0, 40)}' is not a time (YYYYMMDDHHmmss)`);

  const amountText = text("TransAmount").replace(/,/g, "");
  const paid = /^\d+(\.\d+)?$/.test(amountText) ? Number(amountText) : NaN;
  // Whole shillings; a fraction is never counted up (no order is credited more than arrived).
  const amount = paid >= 1 ? Math.floor(paid) : null;
  if (amount === null) problems.push(`TransAmount '${amountText.slice(0, 40)}' is not an amount paid in`);
  else if (amount !== paid) odd.push({ field: "TransAmount", value: fields.TransAmount, note: `not whole shillings; counted as ${amount}` });

  const shortcode = text("BusinessShortCode");
  const accountRef = text("BillRefNumber");
  const payerPhone = text("MSISDN");
  const payerName = ["FirstName", "MiddleName", "LastName"].map(text).filter(Boolean).join(" ");
  for (const f of ["TransactionType", "InvoiceNumber", "OrgAccountBalance", "ThirdPartyTransID"]) text(f);
  for (const [f, max] of Object.entries(LIST_LIMITS)) {
    const v = fields[f];
    if (typeof v === "string" && v.trim().length > max) odd.push({ field: f, value: v, note: `longer than ${max} characters; shortened in lists` });
  }

  const aside = (reason: SetAsideEntry["reason"], note: string): C2BReading => ({
    kind: "set_aside",
    entry: { transId: transId.slice(0, 40), reason, note, shortcode: shortcode.slice(0, 20), amount, paidAt, payerName, payerPhone, accountRef },
  });
  if (problems.length > 0) return aside("unreadable", `${problems.join("; ")}.`);
  if (!shortcode) return aside("other_number", `No BusinessShortCode: which number it was paid to is not known (this site's: ${shortcodes.join(", ")}).`);
  if (!shortcodes.includes(shortcode)) return aside("other_number", `Paid to ${shortcode}, which is not one of this site's numbers (${shortcodes.join(", ")}).`);

  return {
    kind: "payment",
    payment: {
      code: transId,
      amount: amount!,
      paidAt: paidAt!,
      payerName,
      payerPhone,
      accountRef,
      shortcode,
      source: "callback",
      raw: fields,
      ...(odd.length > 0 ? { oddParts: odd } : {}),
    },
  };
}
