/** A person's own request from /privacy/my-data, by the hash of the token in the link mailed to them. */
export interface DataRequestsTable {
  token_hash: string;
  kind: "export" | "erase";
  email: string;
  created_at: string;
  expires_at: string;
  confirmed_at: string | null;
  done_at: string | null;
}

/** Each retention rule's last run. */
export interface RetentionRunsTable {
  rule: string;
  ran_at: string;
  removed: number;
}

/** SHA-256 of an unsubscribed address retention removed: an import does not add it again. */
export interface ForgottenAddressesTable {
  hash: string;
  forgotten_at: string;
}

export interface PeopleTables {
  data_requests: DataRequestsTable;
  retention_runs: RetentionRunsTable;
  forgotten_addresses: ForgottenAddressesTable;
}
