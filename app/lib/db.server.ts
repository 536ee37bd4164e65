import Database from "better-sqlite3";
import path from "node:path";
import pg from "pg";
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  sql,
  type DialectAdapter,
  type Driver,
  type Generated,
  type Migration,
  type MigrationProvider,
} from "kysely";
import * as analyticsRollup from "../../db/migrations/2026-11-21-05-analytics-rollup";
import * as badges from "../../db/migrations/2026-11-21-02-badges";
import * as blog from "../../db/migrations/2026-11-21-04-blog";
import * as foundation from "../../db/migrations/2026-11-21-01-foundation";
import * as staffSessions from "../../db/migrations/2026-11-21-06-staff-sessions";
import * as orderNotes from "../../db/migrations/2026-11-25-07-order-notes";
import * as receivedPayments from "../../db/migrations/2026-11-25-08-received-payments";
import * as sharedState from "../../db/migrations/2026-11-25-09-shared-state";
import * as notifyJobs from "../../db/migrations/2026-11-25-10-notify-jobs";
import * as supporterWall from "../../db/migrations/2026-11-25-11-supporter-wall";
import * as doorCheckIn from "../../db/migrations/2026-11-26-12-door-check-in";
import * as eventRecord from "../../db/migrations/2026-11-26-13-event-record";
import * as openBadges from "../../db/migrations/2026-11-26-14-open-badges";
import * as callbacksOnDoubt from "../../db/migrations/2026-11-26-15-callbacks-on-doubt";
import * as store from "../../db/migrations/2026-11-21-03-store";
import { ensurePrivateDir } from "./files.server";
export { isPostgres } from "./dialect.server";
import { env } from "./env.server";

// The server build bundles app code, so migrations are listed here, in order, rather than
// found by scanning a folder at run time.
const migrations: Record<string, Migration> = {
  "2026-11-21-01-foundation": foundation,
  "2026-11-21-02-badges": badges,
  "2026-11-21-03-store": store,
  "2026-11-21-04-blog": blog,
  "2026-11-21-05-analytics-rollup": analyticsRollup,
  "2026-11-21-06-staff-sessions": staffSessions,
  "2026-11-25-07-order-notes": orderNotes,
  "2026-11-25-08-received-payments": receivedPayments,
  "2026-11-25-09-shared-state": sharedState,
  "2026-11-25-10-notify-jobs": notifyJobs,
  "2026-11-25-11-supporter-wall": supporterWall,
  "2026-11-26-12-door-check-in": doorCheckIn,
  "2026-11-26-13-event-record": eventRecord,
  "2026-11-26-14-open-badges": openBadges,
  "2026-11-26-15-callbacks-on-doubt": callbacksOnDoubt,
};

export interface SubscribersTable {
  id: Generated<number>;
  email: string;
  status: "active" | "unsubscribed";
  source: string;
  token: string;
  created_at: string;
  updated_at: string;
  unsubscribed_at: string | null;
}

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

export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  headers: string;
  attachments: string;
  status: "queued" | "sending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  message_id: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface ActivityTable {
  id: Generated<number>;
  ts: string;
  type: string;
  message: string;
  meta: string;
  actor_ip: string;
}

export interface StaffSessionsTable {
  /** SHA-256 (base64url) of the random id in the session cookie. */
  id: string;
  key_fingerprint: string;
  created_at: string;
  expires_at: string;
  actor_ip: string;
}

export interface AnalyticsEventsTable {
  id: Generated<number>;
  ts: string;
  type: string;
  name: string;
  path: string;
  ref: string;
  src: string;
  meta: string;
  cid: string;
}

/** Views per UTC day, type and name; `uniques` is set when the day's raw events are rolled up. */
export interface AnalyticsDailyTable {
  type: string;
  day: string;
  name: string;
  total: Generated<number>;
  site: Generated<number>;
  share: Generated<number>;
  uniques: Generated<number>;
  last_seen: string;
}

export interface AnalyticsDailyRefsTable {
  day: string;
  host: string;
  total: Generated<number>;
}

/** When each client was last seen per type and name, over the raw (not yet rolled-up) period. */
export interface AnalyticsClientsTable {
  type: string;
  name: string;
  cid: string;
  last_seen: string;
}

export interface AnalyticsRollupStateTable {
  id: number;
  summarized_id: Generated<number>;
  rolled_before: Generated<string>;
  rolling_day: string | null;
}

export interface PaymentCodesTable {
  code: string;
  kind: "badge" | "merch";
  order_id: string;
  created_at: string;
}

export interface BadgeOrdersTable {
  id: string;
  tier_key: string;
  tier_name: string;
  amount: number;
  name: string;
  email: string;
  phone: string;
  payment_reference: string;
  hard_copy: number;
  notes: string;
  share_url: string;
  status: "pending" | "approved" | "rejected";
  created_at: string;
  approved_at: string | null;
  rejected_at: string | null;
  /** File names inside DATA_DIR/badge-orders/<id>/, never paths from a client. */
  portrait_file: string | null;
  badge_file: string | null;
  poster_file: string | null;
  asset_token: string;
  delivery_outbox_id: number | null;
  /** What staff wrote when they last decided (a rejection's reason goes to the supporter). */
  staff_note: string;
  /** The supporter wall (opt-in): listed at all, under which name ('' = first name), with the portrait, hidden by staff. */
  wall_opt_in: number;
  wall_name: string;
  wall_portrait: number;
  wall_hidden: number;
  /** The portrait's name in its public address on the wall (never the order id). */
  wall_key: string | null;
  /** When the supporter was let in at the door (set once). */
  checked_in_at: string | null;
  /** The event date this supporter's day-before reminder was queued for (null: not yet). */
  reminder_for: string | null;
  /** A supporter badge staff revoked (Open Badges: the assertion then says revoked, with the reason). */
  badge_revoked_at: string | null;
  badge_revocation_reason: string;
}

export interface TeamBadgesTable {
  id: string;
  title: string;
  subtitle: string;
  description: string;
  category: string;
  progress: number;
  earned: number;
  owner_name: string;
  issued_at: string;
  icon: string;
  colour: string;
  image_src: string;
  sort: number;
  /** The holder's email, for the Open Badges assertion's hashed recipient ('' when unknown). */
  holder_email: string;
  revoked_at: string | null;
  revocation_reason: string;
}

export interface MerchItemsTable {
  id: string;
  slug: string;
  name: string;
  description: string;
  /** Whole units of `currency` (KES has no cents in use). */
  price: number;
  currency: string;
  impact: string;
  image: string;
  /** JSON arrays. */
  tags: string;
  available: number;
  colors: string;
  sizes: string;
  sort: number;
}

export interface BagsTable {
  id: string;
  lines: string;
  updated_at: string;
}

export interface MerchOrdersTable {
  id: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  notes: string;
  payment_reference: string;
  total: number;
  currency: string;
  /** JSON: the lines as priced by the server when the order was placed. */
  items: string;
  status: "pending" | "approved" | "rejected";
  ts: string;
  reviewed_at: string | null;
  staff_notes: string;
  /** The secret in the link to the order's private page. */
  view_token: string;
}

export interface SeedRunsTable {
  name: string;
  ran_at: string;
}

export interface BlogPostsTable {
  slug: string;
  title: string;
  summary: string;
  author: string;
  date: string;
  /** JSON array of strings. */
  tags: string;
  image: string;
  url: string;
  audio_video_id: string | null;
  /** Already sanitised when saved; sanitised again when shown. */
  content_html: string | null;
  sort: number;
  updated_at: string;
}

export interface BlogReactionsTable {
  slug: string;
  reaction: string;
  cid: string;
  created_at: string;
}

export interface PollsTable {
  id: string;
  question: string;
  created_at: string;
}

export interface PollOptionsTable {
  poll_id: string;
  option: string;
  sort: number;
}

export interface ReceivedPaymentsTable {
  code: string;
  amount: number;
  paid_at: string;
  payer_name: string;
  payer_phone: string;
  account_ref: string;
  shortcode: string;
  source: "callback" | "statement";
  raw: string;
  received_at: string;
  /** JSON list of the confirmation's odd fields ({field, value, note}); '' when none. */
  odd_parts: string;
}

/** Confirmations for another number, or whose TransID, amount or time could not be read. */
export interface CallbacksSetAsideTable {
  id: Generated<number>;
  trans_id: string;
  reason: "other_number" | "unreadable";
  note: string;
  shortcode: string;
  amount: number | null;
  paid_at: string | null;
  payer_name: string;
  payer_phone: string;
  account_ref: string;
  body: string;
  received_at: string;
}

export interface MpesaImportsTable {
  id: Generated<number>;
  imported_at: string;
  actor_ip: string;
  rows: number;
  added: number;
  known: number;
  skipped: number;
  covers_from: string | null;
  covers_to: string | null;
}

export interface MpesaStatementDraftsTable {
  id: string;
  created_at: string;
  file_name: string;
  csv: string;
}

export interface PollVotesTable {
  poll_id: string;
  option: string;
  cid: string;
  created_at: string;
}

export interface BlogNotificationsTable {
  id: Generated<number>;
  slug: string;
  recipients: number;
  queued: number;
  created_at: string;
  /** The run queues mail to active subscribers with a greater id, a batch per transaction. */
  after_subscriber_id: Generated<number>;
  /** While a process works on the run: until when (another takes over after). */
  claimed_until: string | null;
  done_at: string | null;
}

/** PostgreSQL only (see db/migrations/2026-11-25-09-shared-state.ts). */
export interface StoredFilesTable {
  key: string;
  bytes: Buffer;
  updated_at: string;
}

export interface SiteSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

export interface VisitorSaltsTable {
  day: string;
  salt: string;
}

/** rate-limiter-flexible's counters (PostgreSQL only). */
export interface RateLimitsTable {
  key: string;
  points: number;
  expire: number | null;
}

export interface EventRecordTable {
  id: number;
  title: string;
  /** YYYY-MM-DD, Nairobi. */
  date: string;
  /** HH:MM, Nairobi; null when not announced. */
  start_time: string | null;
  venue: string;
  /** YYYY-MM-DD, Nairobi; null when not set. */
  sales_open: string | null;
  raise_target: number;
  /** JSON: { t1: 34, ... } */
  tier_goals: string;
  updated_at: string;
}

export interface DB {
  event_record: EventRecordTable;
  rate_limits: RateLimitsTable;
  stored_files: StoredFilesTable;
  site_secrets: SiteSecretsTable;
  visitor_salts: VisitorSaltsTable;
  blog_posts: BlogPostsTable;
  blog_reactions: BlogReactionsTable;
  polls: PollsTable;
  poll_options: PollOptionsTable;
  poll_votes: PollVotesTable;
  received_payments: ReceivedPaymentsTable;
  callbacks_set_aside: CallbacksSetAsideTable;
  mpesa_imports: MpesaImportsTable;
  mpesa_statement_drafts: MpesaStatementDraftsTable;
  blog_notifications: BlogNotificationsTable;
  merch_items: MerchItemsTable;
  bags: BagsTable;
  merch_orders: MerchOrdersTable;
  seed_runs: SeedRunsTable;
  payment_codes: PaymentCodesTable;
  badge_orders: BadgeOrdersTable;
  team_badges: TeamBadgesTable;
  subscribers: SubscribersTable;
  applications: ApplicationsTable;
  outbox: OutboxTable;
  activity: ActivityTable;
  staff_sessions: StaffSessionsTable;
  analytics_events: AnalyticsEventsTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_daily_refs: AnalyticsDailyRefsTable;
  analytics_clients: AnalyticsClientsTable;
  analytics_rollup_state: AnalyticsRollupStateTable;
}

export type Db = Kysely<DB>;

/** Opens the site's database: PostgreSQL for a postgres:// URL, else the SQLite file at `target`. */
export function openDatabase(target: string, opts: { poolSize?: number } = {}): Db {
  return isPostgresUrl(target) ? openPostgres(target, opts.poolSize ?? 10) : openSqlite(target);
}

export const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/**
 * PostgreSQL through a pool of `pg` connections. Counts and sums come back as numbers, as they
 * do from SQLite (pg's default for bigint and numeric is a string); the site's counts are far
 * below 2^53.
 */
function openPostgres(url: string, poolSize: number): Db {
  const types = {
    getTypeParser(oid: number, format?: "text" | "binary") {
      if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (v: string) => Number(v);
      return pg.types.getTypeParser(oid, format as "text");
    },
  };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: types as pg.CustomTypesConfig });
  // A connection the server drops (restart, idle timeout) is replaced; it must not end the process.
  pool.on("error", (e) => console.error("[db] idle PostgreSQL connection failed:", e.message));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, { pool, url });
  return db;
}

/** Opens a SQLite database file with the settings every connection here uses. */
function openSqlite(file: string): Db {
  if (file !== ":memory:") ensurePrivateDir(path.dirname(file));
  const sqlite = new Database(file);
  sqlite.pragma("busy_timeout = 5000");
  useWal(sqlite);
  // FULL: a record the visitor was told is saved is on disk before the answer goes out.
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  const db = new Kysely<DB>({ dialect: new WriterFirstSqliteDialect({ database: sqlite }) });
  handles.set(db, sqlite);
  return db;
}

/**
 * Switches a database to WAL. Switching needs the database to itself, and SQLite answers 'busy'
 * at once (no busy handler) while another process writes, such as the first of several WORKERS
 * migrating a new database: wait and try again, for up to 30 s, rather than fail the start.
 * Once a database is in WAL mode the switch is a no-op that needs no lock.
 */
function useWal(sqlite: Database.Database) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 1; ; attempt++) {
    try {
      sqlite.pragma("journal_mode = WAL");
      return;
    } catch (e) {
      if (attempt >= 300 || !/SQLITE_BUSY|database is locked/i.test(String((e as { code?: string }).code ?? e))) throw e;
      // Start-up only: a synchronous 100 ms wait keeps openDatabase synchronous.
      Atomics.wait(pause, 0, 0, 100);
    }
  }
}

/**
 * SQLite, with every transaction begun IMMEDIATE: it takes the write lock at its start (waiting
 * up to busy_timeout for another process's write to end) instead of at its first write. A
 * deferred transaction that reads and then writes fails with SQLITE_BUSY, which no wait can
 * cure, when another process (WORKERS, or `npm run backup` beside the server) wrote in between.
 */
class WriterFirstSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }

  override createAdapter(): DialectAdapter {
    return new MigrationLockingSqliteAdapter();
  }
}

/**
 * Kysely's SQLite adapter takes no migration lock (one connection, one process). Several
 * processes starting on one database (WORKERS) would run the same migration at once, and the
 * second fails ('table … already exists'). The lock here is SQLite's own write lock: the
 * migrations run inside one IMMEDIATE transaction on the connection the migrator holds, so the
 * next process waits, then finds them done.
 */
class MigrationLockingSqliteAdapter extends SqliteAdapter {
  #locked = false;

  override async acquireMigrationLock(db: Kysely<any>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await sql`begin immediate`.execute(db);
        this.#locked = true;
        return;
      } catch (e) {
        // busy_timeout already waited 5 s: another process is migrating a large change.
        if (attempt >= 12 || !/SQLITE_BUSY|database is locked/i.test(String(e))) throw e;
      }
    }
  }

  override async releaseMigrationLock(db: Kysely<any>): Promise<void> {
    // Called even when the lock was never taken: only a held lock is committed.
    if (!this.#locked) return;
    this.#locked = false;
    await sql`commit`.execute(db);
  }
}

const handles = new WeakMap<Db, Database.Database>();
const pools = new WeakMap<Db, { pool: pg.Pool; url: string }>();

/** The pg pool (and its URL) behind a PostgreSQL database opened here, for the shared rate limits and the change bus. */
export function postgresPoolOf(db: Db): { pool: pg.Pool; url: string } | undefined {
  return pools.get(db);
}

/** The SQLite connection behind a database opened here (the backup uses SQLite's own API on it). */
export function sqliteHandleOf(db: Db): Database.Database {
  const handle = handles.get(db);
  if (!handle) throw new Error("not a SQLite database opened by openDatabase");
  return handle;
}

export async function migrateToLatest(db: Db) {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
  return results ?? [];
}

let instance: Promise<Db> | undefined;

/** The app's one connection, opened and migrated on first use. */
export function getDb(): Promise<Db> {
  instance ??= (async () => {
    const config = env();
    const db = openDatabase(config.databaseUrl ?? config.databasePath, { poolSize: config.databasePoolSize });
    await migrateToLatest(db);
    return db;
  })();
  return instance;
}

export async function closeDb() {
  if (!instance) return;
  const db = await instance;
  instance = undefined;
  await db.destroy();
}

export const nowIso = () => new Date().toISOString();
