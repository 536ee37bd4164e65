import type { Generated } from "kysely";

export interface ApplicationsTable {
  id: Generated<number>;
  name: string;
  email: string;
  phone: string;
  role: string;
  message: string;
  source: string;
  created_at: string;
  /** The notice wording's version the person agreed to ('' before notices were versioned), and when. */
  consent_version: Generated<string>;
  consent_at: string | null;
  /** Staff keep this application past the retention period. */
  kept: Generated<number>;
}

export interface ApplicationsTables {
  applications: ApplicationsTable;
}
