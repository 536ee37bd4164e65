import Database from "better-sqlite3";
import { DB_FILE } from "./e2e-env";

export type SubscriberRow = {
  id: number;
  email: string;
  status: string;
  source: string;
  token: string;
  created_at: string;
  updated_at: string;
  unsubscribed_at: string | null;
};
export type ApplicationRow = {
  id: number;
  name: string;
  email: string;
  phone: string;
  role: string;
  message: string;
  source: string;
  created_at: string;
};
export type OutboxRow = {
  id: number;
  kind: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  status: string;
  headers: string;
};
export type ActivityRow = { id: number; ts: string; type: string; message: string; actor_ip: string };

/**
 * Runs `fn` against the running site's database, opened read-only for this one call, so
 * every call sees what the server has committed by then.
 */
export function withDb<T>(fn: (db: Database.Database) => T, file = DB_FILE): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    return fn(db);
  } finally {
    db.close();
  }
}

export const subscriberByEmail = (email: string) =>
  withDb((db) => db.prepare("select * from subscribers where email = ?").get(email) as SubscriberRow | undefined);

export const applicationsByEmail = (email: string) =>
  withDb((db) => db.prepare("select * from applications where email = ? order by id").all(email) as ApplicationRow[]);

export const outboxFor = (address: string) =>
  withDb(
    (db) =>
      db
        .prepare("select * from outbox where to_address = ? or reply_to = ? order by id")
        .all(address, address) as OutboxRow[],
  );

export const activityFrom = (ip: string) =>
  withDb((db) => db.prepare("select * from activity where actor_ip = ? order by id").all(ip) as ActivityRow[]);
