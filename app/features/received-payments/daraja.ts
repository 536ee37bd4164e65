import { z } from "zod";
import { MPESA_CODE, nairobiToIso, wholeShillings, type ReceivedPayment } from "./payment";

/** A text field of Daraja's body: strings or numbers (some gateways send amounts as numbers). */
const text = (max: number) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .pipe(z.string().max(max, `at most ${max} characters`));

/**
 * Daraja's C2B confirmation (and validation) body, field names as Safaricom sends them. Only
 * what reconciliation needs is required; the rest is kept as given.
 */
export const C2BSchema = z.object({
  TransactionType: text(40).optional(),
  TransID: text(20)
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(MPESA_CODE, "TransID must be ten letters and digits")),
  TransTime: text(14).pipe(z.string().regex(/^\d{14}$/, "TransTime must be YYYYMMDDHHmmss")),
  TransAmount: text(20),
  BusinessShortCode: text(10),
  BillRefNumber: text(40).optional(),
  InvoiceNumber: text(40).optional(),
  OrgAccountBalance: text(30).optional(),
  ThirdPartyTransID: text(40).optional(),
  MSISDN: text(40).optional(),
  FirstName: text(60).optional(),
  MiddleName: text(60).optional(),
  LastName: text(60).optional(),
});
export type C2BBody = z.output<typeof C2BSchema>;

/** The callback as a payment, or the reason it is not one. */
export function paymentFromC2B(body: C2BBody): ReceivedPayment | { error: string } {
  const t = body.TransTime;
  const paidAt = nairobiToIso(+t.slice(0, 4), +t.slice(4, 6), +t.slice(6, 8), +t.slice(8, 10), +t.slice(10, 12), +t.slice(12, 14));
  if (!paidAt) return { error: "TransTime is not a real time" };
  const amount = wholeShillings(body.TransAmount);
  if (amount === null) return { error: "TransAmount must be a positive whole-shilling amount" };
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === "string") raw[k] = v;
  return {
    code: body.TransID,
    amount,
    paidAt,
    payerName: [body.FirstName, body.MiddleName, body.LastName].filter(Boolean).join(" "),
    payerPhone: body.MSISDN ?? "",
    accountRef: body.BillRefNumber ?? "",
    shortcode: body.BusinessShortCode,
    source: "callback",
    raw,
  };
}
