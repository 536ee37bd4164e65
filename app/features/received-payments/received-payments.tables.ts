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
  covers_from: string | null;
  covers_to: string | null;
}

export interface MpesaStatementDraftsTable {
  id: string;
  created_at: string;
  file_name: string;
  csv: string;
}

export interface ReceivedPaymentsTables {
  received_payments: ReceivedPaymentsTable;
  callbacks_set_aside: CallbacksSetAsideTable;
  mpesa_imports: MpesaImportsTable;
  mpesa_statement_drafts: MpesaStatementDraftsTable;
}
