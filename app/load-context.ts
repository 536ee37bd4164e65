import type { Db } from "./lib/db/db.server";

/**
 * What every request's `context` carries, declared once: the server fills `clientAddress` and
 * `db` for each request (app/server/server.ts); `newClientId` is set by an action for the
 * loaders that render its page.
 */
declare module "react-router" {
  interface AppLoadContext {
    /** The client's address as the server saw it (X-Forwarded-For only with TRUST_PROXY). */
    clientAddress?: string;
    /** The site's database, opened and migrated once at start-up; routes take it from here. */
    db: Db;
    /** A client id made by this request's action, for the loaders that render its page. */
    newClientId?: string;
  }
}

export {};
