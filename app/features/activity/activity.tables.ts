import type { Generated } from "kysely";

export interface ActivityTable {
  id: Generated<number>;
  ts: string;
  type: string;
  message: string;
  meta: string;
  actor_ip: string;
}

export interface ActivityTables {
  activity: ActivityTable;
}
