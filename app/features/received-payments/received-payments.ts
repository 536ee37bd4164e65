import type { OddPart, ReceivedPayment } from "./payment";
import type { MatchedBy } from "./payment-state";
import type { ParsedStatement } from "./statement";

/** What the staff screens show of the received payments: plain types, no server code. */

/** What importing a statement did, or would do (its preview). */
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

/** A received payment as staff lists show it: the phone masked, and the order that holds it, if any, and by which rule. */
export type ReceivedPaymentRow = Pick<ReceivedPayment, "code" | "amount" | "paidAt" | "payerName" | "payerPhone" | "accountRef" | "source"> & {
  order: { kind: "badge" | "merch"; id: string; matchedBy: MatchedBy } | null;
  /** What a callback stored on doubt sent that was odd; empty for most. */
  oddParts: OddPart[];
};
