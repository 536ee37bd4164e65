import { zipSync, strToU8, type Zippable } from "fflate";
import { sql, type Kysely, type RawBuilder, type SqlBool } from "kysely";
import { logAction } from "~/features/activity/activity.server";
import { orderFileExt, orderFileKey } from "~/features/event-badges/portrait.server";
import type { Actor } from "~/lib/core/actor";
import { deleteBlobs, getBlob } from "~/lib/db/blob-store.server";
import { nowIso, type Db } from "~/lib/db/db.server";
import { isPostgres } from "~/lib/db/dialect.server";
import { DomainError } from "~/lib/core/domain-error";
import { randomToken, removeOutboxFile } from "~/lib/mail/email.server";
import { clearPageCache } from "~/lib/http/page-cache.server";
import { escapeLike } from "~/lib/db/sql.server";
import { ERASE_NEEDS_CONTACT_MESSAGE, NOBODY_FOUND_MESSAGE, PERSON_QUERY_MESSAGE, personKeyOf, type Holding, type Identifiers, type PersonFound, type PersonKey } from "./people";

/**
 * One person's data across every table that holds personal data: found by an email address,
 * a phone number (any spelling) or a name; exported as one ZIP; erased, the accounting facts
 * kept without the person. Data functions take the database first and know nothing of Request.
 */


type AnyDb = Kysely<any>;

const PLACES: Record<string, string> = {
  subscribers: "Newsletter subscription",
  applications: "Join application",
  badge_orders: "Badge order",
  merch_orders: "Merchandise order",
  stk_pushes: "M-Pesa prompt",
  received_payments: "M-Pesa payment",
  callbacks_set_aside: "M-Pesa confirmation set aside",
  outbox: "Mail",
  activity: "Activity log entry",
  team_badges: "Team badge",
  mpesa_statement_drafts: "M-Pesa statement draft",
  legacy_import_runs: "Old-site import report",
};

/** Free-text columns that may mention anyone: scanned for the identifiers, scrubbed on erasure. */
const FREE_TEXT: { table: string; key: string; columns: string[] }[] = [
  { table: "activity", key: "id", columns: ["message", "meta"] },
  { table: "outbox", key: "id", columns: ["to_address", "reply_to", "subject", "text_body", "html_body", "headers"] },
  { table: "received_payments", key: "code", columns: ["payer_name", "payer_phone", "raw", "account_ref"] },
  { table: "callbacks_set_aside", key: "id", columns: ["payer_name", "payer_phone", "body", "note", "account_ref"] },
  // Other people's records: only what they or staff wrote may mention this person.
  { table: "badge_orders", key: "id", columns: ["notes", "staff_note", "supporter_note"] },
  { table: "merch_orders", key: "id", columns: ["notes", "staff_notes", "supporter_note"] },
  { table: "applications", key: "id", columns: ["message"] },
  { table: "mpesa_statement_drafts", key: "id", columns: ["csv"] },
  // The old site's import reports keep refused lines and cut values as they were.
  { table: "legacy_import_runs", key: "id", columns: ["report"] },
];

const ERASED = "[erased]";
const ERASED_NAME = "(erased)";

// ---------------------------------------------------------------------------------- matching

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The spellings of a phone's nine digits a LIKE looks for in free text. */
function phoneSpellings(core: string): string[] {
  const [a, b, c] = [core.slice(0, 3), core.slice(3, 6), core.slice(6)];
  return [core, `${a} ${b} ${c}`, `${a}-${b}-${c}`, `${a} ${b}${c}`, `${a}${b} ${c}`, `${a}-${b}${c}`];
}

/** Every identifier as a lower-case LIKE needle. */
function needles(ids: Identifiers): string[] {
  return [...ids.emails, ...ids.phones.flatMap(phoneSpellings), ...ids.names.map((n) => n.toLowerCase())];
}

/** One regular expression that finds any identifier, in any spelling, in a text. */
export function identifierPattern(ids: Identifiers): RegExp | null {
  const parts = [
    ...ids.emails.map(escapeRe),
    ...ids.phones.map((core) => `(?:(?:\\+?254|0)[\\s.\\-()]*)?${core.split("").join("[\\s.\\-()]*")}`),
    ...ids.names.map((n) => n.split(/\s+/).map(escapeRe).join("\\s+")),
  ];
  return parts.length ? new RegExp(parts.join("|"), "gi") : null;
}

/** True where any of `columns` holds any needle (case ignored). */
function mentions(columns: string[], ids: Identifiers): RawBuilder<SqlBool> {
  const tests = columns.flatMap((col) =>
    needles(ids).map((n) => sql<SqlBool>`lower(${sql.ref(col)}) like ${`%${escapeLike(n)}%`} escape '\\'`),
  );
  return tests.length ? sql<SqlBool>`(${sql.join(tests, sql` or `)})` : sql<SqlBool>`(1 = 0)`;
}

/** A phone column with its spacing and punctuation taken out. */
const digitsOf = (col: string) =>
  sql<string>`replace(replace(replace(replace(replace(replace(${sql.ref(col)}, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', '')`;

/** True where the phone column is one of the person's numbers, however it was typed. */
function phoneIs(col: string, phones: string[]): RawBuilder<SqlBool> {
  if (!phones.length) return sql<SqlBool>`(1 = 0)`;
  const tests = phones.map((core) => sql<SqlBool>`(${digitsOf(col)} in (${core}, ${`0${core}`}, ${`254${core}`}))`);
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

function emailIs(col: string, emails: string[]): RawBuilder<SqlBool> {
  if (!emails.length) return sql<SqlBool>`(1 = 0)`;
  return sql<SqlBool>`(lower(${sql.ref(col)}) in (${sql.join(emails)}))`;
}

function nameHas(cols: string[], names: string[], exact: boolean): RawBuilder<SqlBool> {
  const tests = cols.flatMap((col) =>
    names.map((n) =>
      exact
        ? sql<SqlBool>`lower(${sql.ref(col)}) = ${n.toLowerCase()}`
        : sql<SqlBool>`lower(${sql.ref(col)}) like ${`%${escapeLike(n.toLowerCase())}%`} escape '\\'`,
    ),
  );
  return tests.length ? sql<SqlBool>`(${sql.join(tests, sql` or `)})` : sql<SqlBool>`(1 = 0)`;
}

const or = (...tests: RawBuilder<SqlBool>[]) => sql<SqlBool>`(${sql.join(tests, sql` or `)})`;

// ---------------------------------------------------------------------------------- gathering

type Rows = Record<string, Record<string, unknown>[]>;

/** The person's records, table by table, and the identifiers they were found by (widened by what the records hold). */
async function gather(db: AnyDb, key: PersonKey): Promise<{ ids: Identifiers; rows: Rows }> {
  const ids: Identifiers = { emails: [], phones: [], names: [] };
  const add = (list: string[], value: unknown, norm: (v: string) => string | null) => {
    const v = typeof value === "string" ? norm(value) : null;
    if (v && !list.includes(v)) list.push(v);
  };
  const addEmail = (v: unknown) => add(ids.emails, v, (s) => (s.includes("@") ? s.trim().toLowerCase() : null));
  const addPhone = (v: unknown) => add(ids.phones, v, (s) => personKeyOf(s)?.kind === "phone" ? (personKeyOf(s) as { phone: string }).phone : null);
  const addName = (v: unknown) => add(ids.names, v, (s) => {
    const t = s.trim().replace(/\s+/g, " ");
    return t.length >= 3 && t !== ERASED_NAME ? t : null;
  });
  if (key.kind === "email") ids.emails.push(key.email);
  if (key.kind === "phone") ids.phones.push(key.phone);
  const byName = key.kind === "name" ? [key.name] : [];

  let rows: Rows = {};
  // Twice: an order found by email names the phone that finds the prompt and the other orders.
  for (let round = 0; round < 2; round++) {
    rows = {};
    rows.subscribers = await db.selectFrom("subscribers").selectAll().where(emailIs("email", ids.emails)).orderBy("id").execute();
    rows.applications = await db
      .selectFrom("applications")
      .selectAll()
      .where(or(emailIs("email", ids.emails), phoneIs("phone", ids.phones), nameHas(["name"], byName, false)))
      .orderBy("id")
      .execute();
    rows.badge_orders = await db
      .selectFrom("badge_orders")
      .selectAll()
      .where(or(emailIs("email", ids.emails), phoneIs("phone", ids.phones), nameHas(["name", "wall_name"], byName, false)))
      .orderBy("id")
      .execute();
    rows.merch_orders = await db
      .selectFrom("merch_orders")
      .selectAll()
      .where(or(emailIs("customer_email", ids.emails), phoneIs("customer_phone", ids.phones), nameHas(["customer_name"], byName, false)))
      .orderBy("id")
      .execute();
    for (const r of rows.applications) (addEmail(r.email), addPhone(r.phone), addName(r.name));
    for (const r of rows.badge_orders) (addEmail(r.email), addPhone(r.phone), addName(r.name));
    for (const r of rows.merch_orders) (addEmail(r.customer_email), addPhone(r.customer_phone), addName(r.customer_name));
  }
  for (const n of byName) addName(n);

  const orderIds = [...rows.badge_orders!, ...rows.merch_orders!].map((r) => String(r.id));
  const codes = new Set<string>([...rows.badge_orders!, ...rows.merch_orders!].map((r) => String(r.payment_reference)));
  if (orderIds.length) {
    for (const r of await db.selectFrom("payment_codes").select("code").where("order_id", "in", orderIds).execute()) codes.add(r.code);
    for (const r of await db.selectFrom("order_receipts").select("trans_id").where("order_id", "in", orderIds).execute()) codes.add(r.trans_id);
  }
  const ofOrders = orderIds.length ? sql<SqlBool>`(order_id in (${sql.join(orderIds)}))` : sql<SqlBool>`(1 = 0)`;
  rows.stk_pushes = await db.selectFrom("stk_pushes").selectAll().where(or(ofOrders, phoneIs("phone", ids.phones))).orderBy("id").execute();
  for (const r of rows.stk_pushes) if (r.receipt) codes.add(String(r.receipt));
  const codeList = [...codes];
  const ofCodes = (col: string) => (codeList.length ? sql<SqlBool>`(${sql.ref(col)} in (${sql.join(codeList)}))` : sql<SqlBool>`(1 = 0)`);
  rows.received_payments = await db
    .selectFrom("received_payments")
    .selectAll()
    .where(or(ofCodes("code"), phoneIs("payer_phone", ids.phones), nameHas(["payer_name"], ids.names, true), mentions(["raw"], ids)))
    .orderBy("code")
    .execute();
  rows.callbacks_set_aside = await db
    .selectFrom("callbacks_set_aside")
    .selectAll()
    .where(or(ofCodes("trans_id"), phoneIs("payer_phone", ids.phones), nameHas(["payer_name"], ids.names, true), mentions(["body", "note"], ids)))
    .orderBy("id")
    .execute();
  rows.outbox = await db
    .selectFrom("outbox")
    .selectAll()
    .where(or(emailIs("to_address", ids.emails), mentions(["to_address", "reply_to", "subject", "text_body", "html_body", "headers"], ids)))
    .orderBy("id")
    .execute();
  rows.activity = await db.selectFrom("activity").selectAll().where(mentions(["message", "meta"], ids)).orderBy("id").execute();
  rows.team_badges = await db.selectFrom("team_badges").selectAll().where(emailIs("holder_email", ids.emails)).orderBy("id").execute();
  rows.mpesa_statement_drafts = await db.selectFrom("mpesa_statement_drafts").select(["id", "created_at", "file_name", "csv"]).where(mentions(["csv"], ids)).execute();
  // Other people's orders and applications whose notes mention this person.
  const ownIds = new Set([...rows.applications!, ...rows.badge_orders!, ...rows.merch_orders!].map((r) => String(r.id)));
  for (const t of FREE_TEXT.filter((f) => ["badge_orders", "merch_orders", "applications"].includes(f.table))) {
    const more = await db.selectFrom(t.table).selectAll().where(mentions(t.columns, ids)).execute();
    rows[t.table]!.push(...more.filter((r) => !ownIds.has(String(r.id))).map((r) => ({ ...r, __mentioned: true })));
  }
  return { ids, rows };
}

/** Which of a record's fields hold something of the person's. */
function fieldsHolding(row: Record<string, unknown>, pattern: RegExp | null, ids: Identifiers): string[] {
  const out: string[] = [];
  for (const [field, value] of Object.entries(row)) {
    if (typeof value !== "string" || !value || field.startsWith("__")) continue;
    const phone = personKeyOf(value)?.kind === "phone" && ids.phones.includes((personKeyOf(value) as { phone: string }).phone);
    if (phone || ids.emails.includes(value.toLowerCase()) || (pattern && new RegExp(pattern.source, "i").test(value))) out.push(field);
  }
  if (row.portrait_file) out.push("portrait");
  if (row.badge_file || row.poster_file) out.push("badge kit");
  return out;
}

function refOf(table: string, row: Record<string, unknown>): string {
  if (table === "received_payments") return String(row.code);
  if (table === "callbacks_set_aside") return String(row.trans_id || `#${row.id}`);
  if (table === "stk_pushes") return `${row.order_id} (${row.state})`;
  if (table === "outbox") return `#${row.id} ${row.kind} (${row.status})`;
  return String(row.id);
}

function detailOf(table: string, row: Record<string, unknown>): string {
  const when = String(row.created_at ?? row.ts ?? row.sent_at ?? row.paid_at ?? row.received_at ?? "").slice(0, 10);
  if (table === "badge_orders") return `${row.tier_name}, KES ${row.amount}, ${row.status}${row.checked_in_at ? ", checked in" : ""}, ${when}`;
  if (table === "merch_orders") return `KES ${row.total}, ${row.status}, ${when}`;
  if (table === "subscribers") return `${row.status}, since ${when}`;
  if (table === "applications") return `${row.role}, ${when}`;
  if (table === "received_payments") return `KES ${row.amount}, ${when}`;
  if (table === "outbox") return `${String(row.subject).slice(0, 80)}, ${when}`;
  if (table === "activity") return `${row.type}, ${when}`;
  return when;
}

/** Finds the person: each record that holds their data, and what it holds. */
export async function findPerson(db: Db, query: string): Promise<PersonFound> {
  const key = personKeyOf(query);
  if (!key) throw new DomainError("invalid", PERSON_QUERY_MESSAGE, "q");
  const { ids, rows } = await gather(db, key);
  const pattern = identifierPattern(ids);
  const holdings: Holding[] = [];
  for (const [table, list] of Object.entries(rows)) {
    for (const row of list) {
      const holds = fieldsHolding(row, pattern, ids);
      if (!holds.length) continue;
      const place = row.__mentioned ? `${PLACES[table]} (mentions them)` : PLACES[table]!;
      const application = table === "applications" && !row.__mentioned ? { id: Number(row.id), kept: Number(row.kept) === 1 } : undefined;
      holdings.push({ place, table, ref: refOf(table, row), holds, detail: detailOf(table, row), ...(application ? { application } : {}) });
    }
  }
  return { key, identifiers: ids, holdings, files: await filesOf(db, rows) };
}

async function filesOf(db: Db, rows: Rows): Promise<string[]> {
  const out: string[] = [];
  for (const r of rows.badge_orders ?? []) {
    if (r.__mentioned) continue;
    const id = String(r.id);
    for (const kind of ["portrait", "badge", "poster"] as const) {
      const file = r[`${kind}_file`];
      if (file) out.push(`${id}-${kind}.${orderFileExt(String(file))}`);
    }
  }
  return out;
}

/**
 * Staff keep a join application past the applications' retention period (or stop keeping it):
 * the daily retention run then leaves it. Logged without the applicant's data.
 */
export async function keepApplication(db: Db, id: number, keep: boolean, actor: Actor): Promise<void> {
  const r = await db.updateTable("applications").set({ kept: keep ? 1 : 0 }).where("id", "=", id).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new DomainError("not_found", "No such application.");
  await logAction(db, actor, {
    type: "people.keep",
    message: keep ? `Application #${id} is kept past the retention period` : `Application #${id} follows the retention period again`,
    meta: { applicationId: id, kept: keep },
  });
}

function contactKey(query: string): PersonKey {
  const key = personKeyOf(query);
  if (!key) throw new DomainError("invalid", PERSON_QUERY_MESSAGE);
  if (key.kind === "name") throw new DomainError("invalid", ERASE_NEEDS_CONTACT_MESSAGE);
  return key;
}

// ---------------------------------------------------------------------------------- export

/** Link secrets: they open the person's pages, and are no part of what the site knows about them. */
const SECRET_FIELDS = new Set(["asset_token", "view_token", "token", "wall_key"]);

/** The person's records (every table) and their portraits and kits, as one ZIP. */
export async function exportPerson(db: Db, query: string): Promise<{ zip: Uint8Array; fileName: string; records: number }> {
  const key = contactKey(query);
  const { ids, rows } = await gather(db, key);
  const records: Record<string, unknown[]> = {};
  let count = 0;
  for (const [table, list] of Object.entries(rows)) {
    const own = list.filter((r) => !r.__mentioned);
    if (!own.length) continue;
    records[table] = own.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !SECRET_FIELDS.has(k) && !k.startsWith("__"))));
    count += own.length;
  }
  if (!count) throw new DomainError("not_found", NOBODY_FOUND_MESSAGE);
  const files: Zippable = {};
  for (const r of rows.badge_orders ?? []) {
    if (r.__mentioned) continue;
    const id = String(r.id);
    for (const kind of ["portrait", "badge", "poster"] as const) {
      const file = r[`${kind}_file`];
      if (!file) continue;
      const bytes = await getBlob(db, orderFileKey(id, String(file)));
      if (bytes) files[`${id}-${kind}.${orderFileExt(String(file))}`] = [new Uint8Array(bytes), { level: 0 }];
    }
  }
  const doc = {
    exportedAt: nowIso(),
    about: { emails: ids.emails, phones: ids.phones.map((p) => `0${p}`), names: ids.names },
    note: "Every record this site holds about the person, table by table, and their portraits and badge kits under files/.",
    records,
  };
  const zip = zipSync({ "records.json": strToU8(`${JSON.stringify(doc, null, 2)}\n`), files });
  const day = nowIso().slice(0, 10);
  return { zip, fileName: `personal-data-${day}.zip`, records: count };
}

// ---------------------------------------------------------------------------------- erase

export type ErasureCounts = {
  ordersKept: number;
  applications: number;
  subscriptions: number;
  prompts: number;
  payments: number;
  mails: number;
  mentions: number;
  files: number;
};

/**
 * Erases the person: names, emails, phones, portraits, kits, mail bodies, wall entries,
 * applications and subscriptions go; each order keeps its reference, amount, dates, receipt and
 * payment state without the person. Logged without the erased data. On SQLite the freed bytes
 * are zeroed (secure_delete), the file rewritten (VACUUM) and the write-ahead log emptied.
 */
export async function erasePerson(db: Db, query: string, actor: Actor, via: string): Promise<ErasureCounts> {
  const key = contactKey(query);
  const { ids, rows } = await gather(db, key);
  const own = (t: string) => (rows[t] ?? []).filter((r) => !r.__mentioned);
  const found = ["subscribers", "applications", "badge_orders", "merch_orders"].some((t) => own(t).length) || own("stk_pushes").length || own("received_payments").length || own("outbox").length;
  if (!found) throw new DomainError("not_found", NOBODY_FOUND_MESSAGE);
  const pattern = identifierPattern(ids)!;
  const scrub = (text: string | null) => (text == null ? text : text.replace(pattern, ERASED));
  const sqlite = !isPostgres(db);
  if (sqlite) await sql`pragma secure_delete = on`.execute(db);

  const counts: ErasureCounts = { ordersKept: 0, applications: 0, subscriptions: 0, prompts: 0, payments: 0, mails: 0, mentions: 0, files: 0 };
  const badgeIds = own("badge_orders").map((r) => String(r.id));
  await db.transaction().execute(async (trx) => {
    const t = trx as unknown as AnyDb;
    const subs = own("subscribers").map((r) => Number(r.id));
    if (subs.length) counts.subscriptions = Number((await t.deleteFrom("subscribers").where("id", "in", subs).executeTakeFirst()).numDeletedRows);
    const apps = own("applications").map((r) => Number(r.id));
    if (apps.length) counts.applications = Number((await t.deleteFrom("applications").where("id", "in", apps).executeTakeFirst()).numDeletedRows);
    for (const id of badgeIds) {
      await t
        .updateTable("badge_orders")
        .set({
          name: ERASED_NAME,
          email: "",
          phone: "",
          notes: "",
          staff_note: "",
          supporter_note: "",
          wall_opt_in: 0,
          wall_name: "",
          wall_portrait: 0,
          wall_key: null,
          portrait_file: null,
          badge_file: null,
          poster_file: null,
          asset_token: randomToken(),
          badge_revocation_reason: "",
        })
        .where("id", "=", id)
        .execute();
      counts.ordersKept++;
    }
    for (const r of own("merch_orders")) {
      await t
        .updateTable("merch_orders")
        .set({ customer_name: ERASED_NAME, customer_email: "", customer_phone: "", notes: "", staff_notes: "", supporter_note: "", view_token: randomToken() })
        .where("id", "=", String(r.id))
        .execute();
      counts.ordersKept++;
    }
    for (const r of rows.stk_pushes ?? []) {
      await t.updateTable("stk_pushes").set({ phone: "", client_ip: "" }).where("id", "=", Number(r.id)).execute();
      counts.prompts++;
    }
    for (const r of rows.received_payments ?? []) {
      await t
        .updateTable("received_payments")
        .set({ payer_name: "", payer_phone: "", raw: erasedRaw(String(r.raw), scrub), account_ref: scrub(String(r.account_ref)) })
        .where("code", "=", String(r.code))
        .execute();
      counts.payments++;
    }
    for (const r of rows.callbacks_set_aside ?? []) {
      await t
        .updateTable("callbacks_set_aside")
        .set({ payer_name: "", payer_phone: "", body: erasedRaw(String(r.body), scrub), note: scrub(String(r.note)), account_ref: scrub(String(r.account_ref)) })
        .where("id", "=", Number(r.id))
        .execute();
    }
    for (const r of rows.outbox ?? []) {
      const theirs = ids.emails.includes(String(r.to_address).trim().toLowerCase());
      const pending = r.status === "queued" || r.status === "sending";
      const set = theirs
        ? {
            to_address: "",
            reply_to: null,
            subject: ERASED,
            text_body: "",
            html_body: null,
            headers: "{}",
            attachments: "[]",
            ...(pending ? { status: "failed", last_error: "Erased at the person's request." } : {}),
          }
        : { reply_to: scrub(r.reply_to as string | null), subject: scrub(String(r.subject)), text_body: scrub(String(r.text_body)), html_body: scrub(r.html_body as string | null), headers: scrub(String(r.headers)) };
      await t.updateTable("outbox").set(set).where("id", "=", Number(r.id)).execute();
      counts.mails++;
    }
    // The person's own requests from /privacy/my-data are answered by this erasure.
    if (ids.emails.length) await t.deleteFrom("data_requests").where("email", "in", ids.emails).execute();
    for (const r of rows.team_badges ?? []) await t.updateTable("team_badges").set({ holder_email: "" }).where("id", "=", String(r.id)).execute();
    for (const r of rows.mpesa_statement_drafts ?? []) await t.deleteFrom("mpesa_statement_drafts").where("id", "=", String(r.id)).execute();
    // Mentions anywhere else in free text: the identifier is replaced, the record stays.
    for (const f of FREE_TEXT) {
      const found = await t.selectFrom(f.table).select([f.key, ...f.columns]).where(mentions(f.columns, ids)).execute();
      for (const row of found) {
        const set: Record<string, unknown> = {};
        for (const c of f.columns) {
          const v = row[c];
          const next = typeof v === "string" ? v.replace(pattern, ERASED) : v;
          if (next !== v) set[c] = next;
        }
        if (Object.keys(set).length) {
          await t.updateTable(f.table).set(set).where(f.key, "=", row[f.key]).execute();
          counts.mentions++;
        }
      }
    }
  });
  // A message written to the outbox folder (no SMTP_URL) is also a file holding the whole mail.
  for (const r of rows.outbox ?? []) removeOutboxFile(r.message_id as string | null);
  for (const id of badgeIds) {
    const before = (rows.badge_orders ?? []).find((r) => r.id === id)!;
    counts.files += [before.portrait_file, before.badge_file, before.poster_file].filter(Boolean).length;
    await deleteBlobs(db, `badge-orders/${id}`);
  }
  // The wall, order pages and lists may be cached with the person's name.
  clearPageCache();
  await logAction(db, actor, {
    type: "people.erase",
    message: `A person's data was erased (${via}): ${counts.ordersKept} order(s) kept without the person, ${counts.applications} application(s) and ${counts.subscriptions} subscription(s) removed, ${counts.mails} mail(s) emptied, ${counts.files} file(s) deleted`,
    meta: { via, ...counts },
  });
  if (sqlite) {
    // secure_delete zeroes freed cells, but a page SQLite rearranged may keep a stale copy:
    // VACUUM writes every page anew, and the checkpoint folds the log in and empties it.
    await sql`vacuum`.execute(db);
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  }
  return counts;
}

/** A raw M-Pesa message kept for the accounts: its payer fields emptied, any identifier replaced. */
function erasedRaw(raw: string, scrub: (t: string) => string | null): string {
  try {
    const json = JSON.parse(raw) as unknown;
    const clean = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(clean);
      if (v && typeof v === "object") {
        const out: Record<string, unknown> = {};
        for (const [k, inner] of Object.entries(v)) {
          out[k] = /^(FirstName|MiddleName|LastName|MSISDN|PhoneNumber|KYCValue|name|phone)$/i.test(k) ? "" : clean(inner);
        }
        // Daraja's CallbackMetadata items: {Name: "PhoneNumber", Value: 2547...}.
        if (typeof out.Name === "string" && /phone/i.test(out.Name) && "Value" in out) out.Value = "";
        return out;
      }
      return typeof v === "string" ? scrub(v) : v;
    };
    return JSON.stringify(clean(json));
  } catch {
    return scrub(raw) ?? "";
  }
}
