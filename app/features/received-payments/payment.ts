/**
 * A payment as M-Pesa recorded it: what a Daraja C2B callback or a line of the business
 * portal's statement says arrived on the paybill. No zod, no server code: staff screens import
 * the words and the number as staff see it.
 */
export type ReceivedPayment = {
  /** TransID / Receipt No.: ten upper-case letters and digits. */
  code: string;
  /** Whole shillings. */
  amount: number;
  /** ISO-8601 UTC. */
  paidAt: string;
  payerName: string;
  /** As given: statements of newer portals mask it already (2547******678). */
  payerPhone: string;
  accountRef: string;
  shortcode: string;
  source: "callback" | "statement";
  /** The fields as they came, for audit. */
  raw: Record<string, unknown>;
  /** Fields of a callback stored on doubt, as they came, with what was odd about each. */
  oddParts?: OddPart[];
};

/** A field a callback sent that the site did not expect: kept as it came, shown to staff. */
export type OddPart = { field: string; value: unknown; note: string };

export const MPESA_CODE = /^[A-Z0-9]{10}$/;

/**
 * A payer's number as staff see it: as M-Pesa sent it, so staff can call the payer (a full
 * number, or one the portal or C2B v2 masked: '2547 ***** 126'). Daraja C2B v1 sends a SHA-256
 * hash of the number (64 hex characters): shortened. Staff screens only, never a public page.
 */
export function phoneForStaff(phone: string): string {
  const sent = phone.trim();
  if (/[a-z]/i.test(sent)) return sent.length > 14 ? `${sent.slice(0, 6)}…${sent.slice(-4)}` : sent;
  return sent;
}

/** A Nairobi wall-clock time (UTC+3 all year) as ISO-8601 UTC, or null when it is no real time. */
export function nairobiToIso(y: number, mo: number, d: number, h: number, mi: number, s: number): string | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const t = Date.UTC(y, mo - 1, d, h - 3, mi, s);
  const check = new Date(t + 3 * 3_600_000);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  return new Date(t).toISOString();
}

/** '1,300.00' or 1300 -> 1300; null for anything that is not a positive whole-shilling amount. */
export function wholeShillings(value: string | number): number | null {
  const text = String(value).replace(/,/g, "").trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || !Number.isInteger(n)) return null;
  return n;
}
