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
}

export interface ApplicationsTables {
  applications: ApplicationsTable;
}
