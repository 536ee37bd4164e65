import type { Generated } from "kysely";

// The site's own bookkeeping, known to no domain: queued mail, shared files, counters and
// secrets, seed runs.

export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  headers: string;
  attachments: string;
  /** written: kept as an .eml file in DATA_DIR/outbox because no SMTP_URL is set (not sent). */
  status: "queued" | "sending" | "sent" | "written" | "failed";
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  message_id: string | null;
  created_at: string;
  sent_at: string | null;
}

/** PostgreSQL only (see db/migrations/2026-11-25-09-shared-state.ts). */
export interface StoredFilesTable {
  key: string;
  bytes: Buffer;
  updated_at: string;
}

export interface SiteSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

export interface VisitorSaltsTable {
  day: string;
  salt: string;
}

/** rate-limiter-flexible's counters (PostgreSQL only). */
export interface RateLimitsTable {
  key: string;
  points: number;
  expire: number | null;
}

export interface SeedRunsTable {
  name: string;
  ran_at: string;
}

/** Addresses bulk mail skips: their mail server refused a message for good. */
export interface MailSuppressionsTable {
  address: string;
  reason: string;
  suppressed_at: string;
}

/** One row (id 1): failed delivery attempts in a row, since the last message sent. */
export interface MailHealthTable {
  id: number;
  failures_in_row: number;
  first_failure_at: string | null;
  last_failure_at: string | null;
  last_error: string | null;
}

export interface InfraTables {
  mail_suppressions: MailSuppressionsTable;
  mail_health: MailHealthTable;
  outbox: OutboxTable;
  stored_files: StoredFilesTable;
  site_secrets: SiteSecretsTable;
  visitor_salts: VisitorSaltsTable;
  rate_limits: RateLimitsTable;
  seed_runs: SeedRunsTable;
}
