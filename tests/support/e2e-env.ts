import path from "node:path";
import { fileURLToPath } from "node:url";

/** Settings the browser-test config and the tests share. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const SITE_PORT = Number(process.env.E2E_SITE_PORT ?? 4321);
export const BASE_URL = `http://127.0.0.1:${SITE_PORT}`;
export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 4325);
export const MAIL_API = `http://127.0.0.1:${Number(process.env.E2E_MAIL_HTTP_PORT ?? 4326)}`;
export const MAIL_HTTP_PORT = Number(new URL(MAIL_API).port);
export const TMP_DIR = path.join(ROOT, "tests/.tmp");
export const DATA_DIR = path.join(TMP_DIR, "e2e-data");
export const DB_FILE = path.join(DATA_DIR, "site.db");
export const ADMIN_KEY = "e2e-admin-key-0123456789";
/** Where the organisation's application notices go when ORG_INBOX is not set (app/lib/core/site.ts). */
export const ORG_INBOX = "hello@streetlight-outreach.org";
