import type { OddPart, ReceivedPayment } from "./payment";
import type { MatchedBy } from "./payment-state";
import type { ParsedStatement, PeriodSource } from "./statement";

/** What the staff screens show of the received payments: plain types, no server code. */

/** A reversal a statement holds, and whether the payment it takes back is known to the site. */
export type PreviewReversal = { line: number; code: string; original: string; amount: number; at: string; originalKnown: boolean };

/** What importing a statement did, or would do (its preview). */
export type StatementPreview = {
  rows: number;
  added: number;
  known: number;
  skipped: ParsedStatement["skipped"];
  /** Orders (badge and merch) whose payment code is one of the new payments. */
  matched: number;
  /** The period the statement covers (its stated period, up to the time of import), or null. */
  coversFrom: string | null;
  coversTo: string | null;
  /** The number the statement names, or null. */
  shortcode: string | null;
  /** Where the period came from, or null when the statement covers none. */
  periodSource: PeriodSource | null;
  /** Why the statement cannot show that a payment is missing, when it cannot. */
  periodNote: string | null;
  reversals: PreviewReversal[];
  /** How dates like 11/5/2026 were read, and the line that showed it. */
  dateOrders: ParsedStatement["dateOrders"];
};

/** A received payment as staff lists show it: the phone masked, and the order that holds it, if any, and by which rule. */
export type ReceivedPaymentRow = Pick<ReceivedPayment, "code" | "amount" | "paidAt" | "payerName" | "payerPhone" | "accountRef" | "source"> & {
  order: { kind: "badge" | "merch"; id: string; matchedBy: MatchedBy } | null;
  /** What a callback stored on doubt sent that was odd; empty for most. */
  oddParts: OddPart[];
  /** M-Pesa took this payment back: the reversal's receipt and when. */
  reversed?: { by: string; at: string };
};
