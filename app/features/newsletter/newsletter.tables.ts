import type { Generated } from "kysely";

export interface SubscribersTable {
  id: Generated<number>;
  email: string;
  status: "active" | "unsubscribed";
  source: string;
  token: string;
  created_at: string;
  updated_at: string;
  unsubscribed_at: string | null;
  /** The notice wording's version the person agreed to ('' before notices were versioned), and when. */
  consent_version: Generated<string>;
  consent_at: string | null;
}

export interface NewsletterTables {
  subscribers: SubscribersTable;
}
