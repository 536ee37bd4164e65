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
  mpesa_imports: MpesaImportsTable;
  mpesa_statement_drafts: MpesaStatementDraftsTable;
}
