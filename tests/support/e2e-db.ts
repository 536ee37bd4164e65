import Database from "better-sqlite3";
import type { Selectable } from "kysely";
import type { ActivityTable } from "../../app/features/activity/activity.tables";
import type { ApplicationsTable } from "../../app/features/applications/applications.tables";
import type { SubscribersTable } from "../../app/features/newsletter/newsletter.tables";
import type { OutboxTable } from "../../app/lib/db/infra.tables";
import { DB_FILE } from "./e2e-env";

export type SubscriberRow = Selectable<SubscribersTable>;
export type ApplicationRow = Selectable<ApplicationsTable>;
export type OutboxRow = Pick<Selectable<OutboxTable>, "id" | "kind" | "to_address" | "reply_to" | "subject" | "status" | "headers">;
export type ActivityRow = Omit<Selectable<ActivityTable>, "meta">;

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
