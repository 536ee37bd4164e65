import { nairobiToIso } from "../received-payments/payment";

/**
 * Reading an M-Pesa Express result callback as Safaricom sends it:
 * `{Body: {stkCallback: {MerchantRequestID, CheckoutRequestID, ResultCode, ResultDesc, CallbackMetadata?}}}`,
 * ResultCode a number or a string, the metadata a list of {Name, Value} in any order, Balance
 * often without a Value, TransactionDate and PhoneNumber numbers.
 */
export type StkResult = {
  checkoutRequestId: string;
  merchantRequestId: string;
  resultCode: string;
  resultDesc: string;
  /** MpesaReceiptNumber, upper case; null when the callback names none. */
  receipt: string | null;
  amount: number | null;
  /** TransactionDate (Nairobi) as ISO UTC; null when absent or unreadable. */
  paidAt: string | null;
  phone: string;
};

export type StkReading = { kind: "result"; result: StkResult } | { kind: "unreadable"; why: string };

const obj = (v: unknown): Record<string, unknown> | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const text = (v: unknown): string => (typeof v === "string" ? v.trim() : typeof v === "number" && Number.isFinite(v) ? String(v) : "");

export function readStkCallback(body: unknown): StkReading {
  const cb = obj(obj(obj(body)?.Body)?.stkCallback);
  if (!cb) return { kind: "unreadable", why: "Body.stkCallback: missing, so this is not an M-Pesa Express result" };
  const checkoutRequestId = text(cb.CheckoutRequestID);
  if (!checkoutRequestId) return { kind: "unreadable", why: "CheckoutRequestID: missing" };
  const resultCode = text(cb.ResultCode);
  // Non-numeric codes ('SFC_IC0003') are seen in the wild: a failure in M-Pesa's own words, never a refusal.
  if (!resultCode) return { kind: "unreadable", why: "ResultCode: missing" };
  const items = new Map<string, unknown>();
  const list = obj(cb.CallbackMetadata)?.Item;
  if (Array.isArray(list)) {
    for (const item of list) {
      const i = obj(item);
      const name = i ? text(i.Name) : "";
      if (name && i && "Value" in i) items.set(name, i.Value);
    }
  }
  const receiptText = text(items.get("MpesaReceiptNumber")).toUpperCase();
  const amountText = text(items.get("Amount")).replace(/,/g, "");
  const amount = /^\d+(\.\d+)?$/.test(amountText) ? Math.floor(Number(amountText)) : null;
  const date = text(items.get("TransactionDate"));
  const paidAt = /^\d{14}$/.test(date) ? nairobiToIso(+date.slice(0, 4), +date.slice(4, 6), +date.slice(6, 8), +date.slice(8, 10), +date.slice(10, 12), +date.slice(12, 14)) : null;
  return {
    kind: "result",
    result: {
      checkoutRequestId: checkoutRequestId.slice(0, 100),
      merchantRequestId: text(cb.MerchantRequestID).slice(0, 100),
      resultCode: /^\d+$/.test(resultCode) ? String(Number(resultCode)) : resultCode.slice(0, 40),
      resultDesc: text(cb.ResultDesc).slice(0, 300),
      receipt: /^[A-Z0-9]{6,20}$/.test(receiptText) ? receiptText : null,
      amount: amount !== null && amount >= 1 ? amount : null,
      paidAt,
      phone: text(items.get("PhoneNumber")).slice(0, 20),
    },
  };
}
