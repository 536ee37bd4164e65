import type { Generated } from "kysely";

export interface ReceivedPaymentsTable {
  code: string;
  amount: number;
  paid_at: string;
  payer_name: string;
  payer_phone: string;
  account_ref: string;
  shortcode: string;
  source: "callback" | "statement";
  raw: string;
  received_at: string;
  /** JSON list of the confirmation's odd fields ({field, value, note}); '' when none. */
  odd_parts: string;
  /** When M-Pesa took this payment back (a statement's Reversal row), and that reversal's receipt. */
  reversed_at: string | null;
  reversed_by: string | null;
}

/** Reversal rows read from statements, kept until (and after) the payment they take back is known. */
export interface PaymentReversalsTable {
  /** The reversal's own receipt. */
  code: string;
  /** The payment it took back (the statement's Linked Transaction ID). */
  original_code: string;
  amount: number;
  reversed_at: string;
  received_at: string;
}

/** Confirmations for another number, or whose TransID, amount or time could not be read. */
export interface CallbacksSetAsideTable {
  id: Generated<number>;
  trans_id: string;
  reason: "other_number" | "unreadable";
  note: string;
  shortcode: string;
  amount: number | null;
  paid_at: string | null;
  payer_name: string;
  payer_phone: string;
  account_ref: string;
  body: string;
  received_at: string;
}

export interface MpesaImportsTable {
  id: Generated<number>;
  imported_at: string;
  actor_ip: string;
  rows: number;
  added: number;
  known: number;
  skipped: number;
  /** The statement's stated period (never its first and last rows), capped at the time of import. */
  covers_from: string | null;
  covers_to: string | null;
  /** The number the statement's title names; '' when it names none. */
  shortcode: string;
  /** Where the period came from; only 'time_period' and 'from_to' let a missing code be 'no such payment'. */
  period_source: "time_period" | "from_to" | "none" | "payment_rows";
}

export interface MpesaStatementDraftsTable {
  id: string;
  created_at: string;
  file_name: string;
  csv: string;
  /** An .xlsx statement, base64; '' for a CSV one. */
  xlsx_base64: string;
}

export interface ReceivedPaymentsTables {
  received_payments: ReceivedPaymentsTable;
  callbacks_set_aside: CallbacksSetAsideTable;
  mpesa_imports: MpesaImportsTable;
  mpesa_statement_drafts: MpesaStatementDraftsTable;
  payment_reversals: PaymentReversalsTable;
}
