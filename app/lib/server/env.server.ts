import path from "node:path";
import { nairobiInstant } from "../core/nairobi-time";
import { checkDarajaEnv, DarajaEnvSchema, stkConfigOf, type StkConfig } from "~/lib/server/daraja-env.server";
import { site } from "../core/site";
import { parseTrustProxy } from "./trusted-proxy";
import { AGE_RECIPIENT } from "./backup-crypto.server";
import { z } from "zod";

const Port = z.coerce
  .number({ message: "must be a whole number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

const Switch = z
  .enum(["on", "off", "true", "false", "1", "0", "yes", "no"], {
    message: "must be on or off",
  })
  .transform((v) => v === "on" || v === "true" || v === "1" || v === "yes");

/**
 * The word in a callback URL (or part of one) that Safaricom refuses to register, or null:
 * M-PESA, mpesa, Safaricom, exe (so exec), cmd, sql or query, in any case.
 */
export function refusedCallbackWord(text: string): string | null {
  return /m-?pesa|safaricom|exe|cmd|sql|query/i.exec(text)?.[0] ?? null;
}

/** Letters only, digits only, or symbols only: a guessable shape for a typed-in key. */
export function isOneClassKey(key: string): boolean {
  const classes = [/\p{L}/u, /\p{N}/u, /[^\p{L}\p{N}]/u].filter((re) => re.test(key));
  return classes.length < 2;
}

const EnvSchema = z
  .object({
  NODE_ENV: z.string().default("production"),
  PORT: Port.default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_URL: z
    .url({ message: "must be an absolute http(s) URL such as https://example.org" })
    .refine((u) => /^https?:\/\//.test(u), "must start with http:// or https://")
    .optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_PATH: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/i, "must be a PostgreSQL URL such as postgres://user:password@host:5432/site")
    .optional(),
  DATABASE_POOL: z.coerce.number().int().min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(10),
  ADMIN_KEY: z
    .string()
    .min(16, "must be at least 16 characters (or unset it to have one generated)")
    .max(256, "must be at most 256 characters")
    .refine(
      (k) => k.length < 16 || !isOneClassKey(k),
      "must mix at least two of letters, digits and other characters, not only one kind (or unset it to have one generated)",
    )
    .optional(),
  SMTP_URL: z
    .string()
    .refine((u) => /^smtps?:\/\/[^\s]+$/.test(u), "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  ORG_INBOX: z.email({ message: "must be an email address" }).optional(),
  RATE_LIMIT: Switch.default(true),
  TRUST_PROXY: z
    .string()
    .refine((v) => parseTrustProxy(v) !== null, "must be on, off, or the proxy's addresses separated by commas (e.g. 127.0.0.1,::1 or 10.0.0.0/8)")
    .optional(),
  ANALYTICS_RETENTION_DAYS: z.coerce
    .number({ message: "must be a whole number of days" })
    .int("must be a whole number of days")
    .min(1, "must be at least 1 day")
    .max(3650, "must be at most 3650 days")
    .default(90),
  MPESA_CALLBACK_SECRET: z
    .string()
    .min(16, "must be at least 16 characters (it is the only thing that makes a callback URL private)")
    .max(128, "must be at most 128 characters")
    .regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, _ or - (it is part of a URL)")
    .superRefine((secret, ctx) => {
      const word = refusedCallbackWord(secret);
      if (word) ctx.addIssue({ code: "custom", message: `must not contain '${word}': Safaricom refuses callback URLs containing M-PESA, mpesa, Safaricom, exe, exec, cmd, sql or query` });
    })
    .optional(),
  MPESA_SHORTCODE: z
    .string()
    .regex(/^\s*\d{5,7}\s*(,\s*\d{5,7}\s*)*$/, "must be the paybill's 5-7 digit business number, or several (a paybill and a till) separated by commas")
    .optional(),
  AUTO_APPROVE_VERIFIED: Switch.default(false),
  ...DarajaEnvSchema,
  WORKERS: z.coerce
    .number({ message: "must be a whole number from 1 to 64" })
    .int("must be a whole number from 1 to 64")
    .min(1, "must be a whole number from 1 to 64")
    .max(64, "must be a whole number from 1 to 64")
    .default(1),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_EVERY: z
    .string()
    .regex(/^\d+(s|m|h|d)$/, "must be a duration such as 30m, 1h or 1d")
    .refine((v) => durationMs(v) >= 60_000, "must be at least 1m")
    .default("1h"),
  BACKUP_KEEP: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(10_000, "must be at most 10000")
    .default(48),
  BACKUP_RECIPIENTS: z
    .string()
    .refine((v) => v.split(",").every((r) => AGE_RECIPIENT.test(r.trim())), "must be age public keys (age1… as age-keygen prints them), separated by commas")
    .optional(),
  BACKUP_COMMAND: z.string().max(4000, "must be at most 4000 characters").optional(),
  EVENT_SALES_OPEN: z
    .string()
    .refine((v) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), "must be a date, e.g. 2026-11-01 or 2026-11-01T09:00+03:00")
    .optional(),
  CALLBACKS_QUIET_AFTER: z
    .string()
    .regex(/^\d+(s|m|h|d)$/, "must be a duration such as 6h, 90m or 1d")
    .refine((v) => durationMs(v) >= 60_000, "must be at least 1m")
    .default("6h"),
  ALLOW_LOCAL_PUBLIC_URL: Switch.default(false),
  LOG_FORMAT: z.enum(["text", "json"], { message: "must be text or json" }).default("text"),
  ACCESS_LOG: Switch.default(false),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").max(256, "must be at most 256 characters").regex(/^[\x21-\x7e]+$/, "must be printable characters without spaces").optional(),
  CONNECTIONS_PER_ADDRESS: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(4, "must be at least 4 (phones open several connections each)")
    .max(100_000, "must be at most 100000")
    .default(256),
  })
  .superRefine(checkDarajaEnv);

export type Env = {
  nodeEnv: string;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databasePath: string;
  /** PostgreSQL instead of the SQLite file at databasePath. */
  databaseUrl: string | undefined;
  /** Connections each process keeps to PostgreSQL. */
  databasePoolSize: number;
  adminKey: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  orgInbox: string | undefined;
  rateLimit: boolean;
  trustProxy: boolean;
  /** The proxy addresses whose X-Forwarded-* headers are believed (TRUST_PROXY; loopback for 'on'). */
  trustedProxies: string[];
  /** Raw analytics events older than this are rolled up into daily counts and deleted. */
  analyticsRetentionDays: number;
  /** Open connections one client address may hold at once (carrier NAT: many phones, one address). */
  connectionsPerAddress: number;
  /** The secret path part of the Daraja C2B callback URLs; unset, they answer 404. */
  mpesaCallbackSecret: string | undefined;
  /** The paybill whose payments count (Daraja's BusinessShortCode); the first of mpesaShortcodes. */
  mpesaShortcode: string;
  /** Every number of the site (a paybill and a till): callbacks for another are set aside as 'other number'. */
  mpesaShortcodes: string[];
  /** M-Pesa Express (STK push): on only when the Daraja keys and MPESA_CALLBACK_SECRET are set. */
  stk: StkConfig | null;
  /** A verified badge order gets its kit, a verified merch order is approved, with no click. */
  autoApproveVerified: boolean;
  /** When the event's badge sales opened (ISO UTC): a payment made before it is flagged. */
  eventSalesOpen: string | null;
  /** Server processes `npm start` runs on one port (node:cluster). */
  workers: number;
  /** Where snapshots of the database and its files go; unset, none are taken. */
  backupDir: string | undefined;
  backupEveryMs: number;
  backupKeep: number;
  /** age public keys each backup is encrypted to; empty: backups are not encrypted. */
  backupRecipients: string[];
  /** Run by /bin/sh after each backup, with BACKUP_FILE set (a copy off the machine). */
  backupCommand: string | undefined;
  /** Orders pending while no M-Pesa callback has come for this long: /admin/payments and /readyz warn. */
  callbacksQuietAfterMs: number;
  /** A production start accepts a missing or local PUBLIC_URL (a site used on one machine or a LAN, the tests). */
  allowLocalPublicUrl: boolean;
  /** PUBLIC_URL as set (undefined when unset: publicUrl is then http://localhost:PORT). */
  publicUrlSet: string | undefined;
  logFormat: "text" | "json";
  /** One line per request: method, path (no query values, no callback secret), status, ms, bytes, client. */
  accessLog: boolean;
  /** GET /metrics answers only `Authorization: Bearer <this>`; unset, /metrics is a 404. */
  metricsToken: string | undefined;
};

/** '30m' -> 1,800,000: s, m, h or d. */
export function durationMs(text: string): number {
  const m = /^(\d+)(s|m|h|d)$/.exec(text);
  if (!m) return NaN;
  return Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as "s" | "m" | "h" | "d"];
}

/** '880100, 5123456' -> ['880100', '5123456'] (each once); unset, the site's paybill. */
function shortcodes(list: string | undefined): string[] {
  if (!list) return [site.payments.merchPaybill];
  return [...new Set(list.split(",").map((s) => s.trim()))];
}

export class ConfigError extends Error {}

/** Reads and validates the environment. Throws ConfigError naming every bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings count as unset, as a shell `FOO=` usually means.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map(
      (i) => `  ${i.path.join(".")}: ${i.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = result.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    // `npm start` runs the production build everywhere; a deployed site is one the operator started
    // with NODE_ENV=production (start.mjs keeps what was given as OPERATOR_NODE_ENV).
    nodeEnv: process.env.OPERATOR_NODE_ENV ?? e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    dataDir,
    databasePath: e.DATABASE_PATH ? path.resolve(e.DATABASE_PATH) : path.join(dataDir, "site.db"),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL,
    adminKey: e.ADMIN_KEY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    orgInbox: e.ORG_INBOX,
    rateLimit: e.RATE_LIMIT,
    trustProxy: (parseTrustProxy(e.TRUST_PROXY) ?? []).length > 0,
    trustedProxies: parseTrustProxy(e.TRUST_PROXY) ?? [],
    analyticsRetentionDays: e.ANALYTICS_RETENTION_DAYS,
    connectionsPerAddress: e.CONNECTIONS_PER_ADDRESS,
    mpesaCallbackSecret: e.MPESA_CALLBACK_SECRET,
    mpesaShortcode: shortcodes(e.MPESA_SHORTCODE)[0]!,
    mpesaShortcodes: shortcodes(e.MPESA_SHORTCODE),
    autoApproveVerified: e.AUTO_APPROVE_VERIFIED,
    stk: stkConfigOf(e, shortcodes(e.MPESA_SHORTCODE)[0]!, (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "")),
    // A bare date is midnight in Nairobi (UTC+3).
    eventSalesOpen: e.EVENT_SALES_OPEN
      ? (/^\d{4}-\d{2}-\d{2}$/.test(e.EVENT_SALES_OPEN) ? nairobiInstant(e.EVENT_SALES_OPEN) : new Date(e.EVENT_SALES_OPEN)).toISOString()
      : null,
    workers: e.WORKERS,
    backupDir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : undefined,
    backupEveryMs: durationMs(e.BACKUP_EVERY),
    backupKeep: e.BACKUP_KEEP,
    backupRecipients: e.BACKUP_RECIPIENTS ? e.BACKUP_RECIPIENTS.split(",").map((r) => r.trim()) : [],
    backupCommand: e.BACKUP_COMMAND?.trim() || undefined,
    callbacksQuietAfterMs: durationMs(e.CALLBACKS_QUIET_AFTER),
    allowLocalPublicUrl: e.ALLOW_LOCAL_PUBLIC_URL,
    publicUrlSet: e.PUBLIC_URL,
    logFormat: e.LOG_FORMAT,
    accessLog: e.ACCESS_LOG,
    metricsToken: e.METRICS_TOKEN,
  };
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/** For tests that change the environment between cases. */
export function resetEnvForTests() {
  cached = undefined;
}
