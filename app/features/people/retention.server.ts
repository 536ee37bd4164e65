import crypto from "node:crypto";
import { sql } from "kysely";
import { logAction } from "~/features/activity/activity.server";
import { getEvent } from "~/features/event-badges/event.server";
import { system } from "~/lib/core/actor";
import { deleteBlobs } from "~/lib/db/blob-store.server";
import type { Db } from "~/lib/db/db.server";
import { removeOutboxFile } from "~/lib/mail/email.server";
import { isDatabaseUnavailable } from "~/lib/core/database-unavailable";
import { clearPageCache } from "~/lib/http/page-cache.server";
import { RETENTION_DEFAULTS, type RetentionRule, type RetentionRuleKey } from "./retention";

/**
 * The retention rules, run daily on either database: each removes what its period has passed
 * and records when it ran and how much it removed (the staff screen shows both).
 */

/** The rules with their configured periods: RETENTION_*_DAYS (a whole number of days), else the default. */
export function retentionRules(vars: Record<string, string | undefined> = process.env): RetentionRule[] {
  return RETENTION_DEFAULTS.map((r) => {
    const set = vars[r.env]?.trim();
    const days = set && /^\d{1,5}$/.test(set) && Number(set) > 0 ? Number(set) : r.days;
    return { ...r, days };
  });
}

export const addressHash = (email: string) => crypto.createHash("sha256").update(email.trim().toLowerCase()).digest("hex");

const before = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

const RUNS: Record<RetentionRuleKey, (db: Db, cutoff: string, now: Date, days: number) => Promise<number>> = {
  /** Portraits and kits of an event that ended more than the period ago (every order is of the one event). */
  async kit_files(db, _cutoff, now, days) {
    const event = await getEvent(db);
    const ended = new Date(`${event.date}T23:59:59+03:00`);
    if (Number.isNaN(ended.getTime()) || ended.getTime() + days * 86_400_000 > now.getTime()) return 0;
    const rows = await db
      .selectFrom("badge_orders")
      .select("id")
      .where((eb) => eb.or([eb("portrait_file", "is not", null), eb("badge_file", "is not", null), eb("poster_file", "is not", null)]))
      .where("created_at", "<=", ended.toISOString())
      .execute();
    for (const r of rows) {
      await db.updateTable("badge_orders").set({ portrait_file: null, badge_file: null, poster_file: null, wall_portrait: 0 }).where("id", "=", r.id).execute();
      await deleteBlobs(db, `badge-orders/${r.id}`);
    }
    if (rows.length) clearPageCache("/event");
    return rows.length;
  },
  /** Typed phones of decided orders, prompts' phones and payers' names and numbers, once the payment settled long enough ago. */
  async payer_details(db, cutoff) {
    let n = 0;
    n += Number((await db.updateTable("received_payments").set({ payer_name: "", payer_phone: "", raw: "{}" }).where("paid_at", "<", cutoff).where((eb) => eb.or([eb("payer_name", "!=", ""), eb("payer_phone", "!=", ""), eb("raw", "!=", "{}")])).executeTakeFirst()).numUpdatedRows);
    n += Number((await db.updateTable("callbacks_set_aside").set({ payer_name: "", payer_phone: "", body: "{}" }).where("received_at", "<", cutoff).where("body", "!=", "{}").executeTakeFirst()).numUpdatedRows);
    n += Number((await db.updateTable("stk_pushes").set({ phone: "", client_ip: "" }).where("settled_at", "<", cutoff).where("phone", "!=", "").executeTakeFirst()).numUpdatedRows);
    n += Number((await db.updateTable("badge_orders").set({ phone: "" }).where("phone", "!=", "").where((eb) => eb.or([eb("approved_at", "<", cutoff), eb("rejected_at", "<", cutoff)])).executeTakeFirst()).numUpdatedRows);
    n += Number((await db.updateTable("merch_orders").set({ customer_phone: "" }).where("customer_phone", "!=", "").where("status", "!=", "pending").where("reviewed_at", "<", cutoff).executeTakeFirst()).numUpdatedRows);
    return n;
  },
  /** Sent mail keeps its status and headers; its text, HTML and attachments go. */
  async mail_bodies(db, cutoff) {
    // Sent, or written to the outbox folder with no SMTP_URL (that file holds the body too).
    const done = ["sent", "written"] as const;
    const written = await db.selectFrom("outbox").select("message_id").where("status", "=", "written").where("sent_at", "<", cutoff).where("message_id", "like", "file:%").execute();
    const r = await db
      .updateTable("outbox")
      .set({ text_body: "", html_body: null, attachments: "[]" })
      .where("status", "in", done)
      .where("sent_at", "<", cutoff)
      .where((eb) => eb.or([eb("text_body", "!=", ""), eb("html_body", "is not", null), eb("attachments", "!=", "[]")]))
      .executeTakeFirst();
    let files = 0;
    for (const w of written) if (removeOutboxFile(w.message_id)) files++;
    return Math.max(Number(r.numUpdatedRows), files);
  },
  /** Unsubscribed addresses go; their hash stays so an import does not add them again. */
  async unsubscribed(db, cutoff, now) {
    return db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom("subscribers").select(["id", "email"]).where("status", "=", "unsubscribed").where("unsubscribed_at", "<", cutoff).execute();
      for (const r of rows) {
        await trx.insertInto("forgotten_addresses").values({ hash: addressHash(r.email), forgotten_at: now.toISOString() }).onConflict((oc) => oc.column("hash").doNothing()).execute();
      }
      if (rows.length) await trx.deleteFrom("subscribers").where("id", "in", rows.map((r) => r.id)).execute();
      return rows.length;
    });
  },
  async applications(db, cutoff) {
    const r = await db.deleteFrom("applications").where("created_at", "<", cutoff).where("kept", "=", 0).executeTakeFirst();
    return Number(r.numDeletedRows);
  },
};

/** Runs every rule now; answers what each removed. */
export async function runRetention(db: Db, now = new Date()): Promise<Record<RetentionRuleKey, number>> {
  const out = {} as Record<RetentionRuleKey, number>;
  for (const rule of retentionRules()) {
    const removed = await RUNS[rule.key](db, before(now, rule.days), now, rule.days);
    out[rule.key] = removed;
    await db
      .insertInto("retention_runs")
      .values({ rule: rule.key, ran_at: now.toISOString(), removed })
      .onConflict((oc) => oc.column("rule").doUpdateSet({ ran_at: now.toISOString(), removed }))
      .execute();
  }
  const total = Object.values(out).reduce((a, b) => a + b, 0);
  if (total) {
    await logAction(db, system("retention rules"), {
      type: "people.retention",
      message: `Retention removed ${total} record(s) or file set(s) past their period`,
      meta: out,
    });
  }
  return out;
}

/** Each rule with its last run, for the staff screen. */
export async function retentionStatus(db: Db) {
  const runs = await db.selectFrom("retention_runs").selectAll().execute();
  return retentionRules().map((r) => {
    const run = runs.find((x) => x.rule === r.key);
    return { ...r, ranAt: run?.ran_at ?? null, removed: run?.removed ?? null };
  });
}

/** True when an address was unsubscribed and then forgotten (an import must not add it again). */
export async function isForgottenAddress(db: Db, email: string): Promise<boolean> {
  return !!(await db.selectFrom("forgotten_addresses").select("hash").where("hash", "=", addressHash(email)).executeTakeFirst());
}

let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;

/**
 * Daily: looked at hourly, run when the last run is a day old (any process may run it; every
 * rule is safe to run twice).
 */
export function startRetention(db: Db, { firstDelayMs = 5 * 60_000, everyMs = 60 * 60_000 } = {}) {
  const tick = () => {
    if (running) return;
    running = (async () => {
      const last = await db.selectFrom("retention_runs").select(sql<string>`min(ran_at)`.as("at")).executeTakeFirst();
      const due = !last?.at || Date.parse(last.at) < Date.now() - 86_400_000 || (await db.selectFrom("retention_runs").select("rule").execute()).length < retentionRules().length;
      if (due) await runRetention(db);
    })()
      .catch((e) => isDatabaseUnavailable(e) || console.error("[retention] could not run the retention rules:", (e as Error).message))
      .finally(() => (running = undefined));
  };
  const first = setTimeout(tick, firstDelayMs);
  timer = setInterval(tick, everyMs);
  first.unref();
  timer.unref();
}

export async function stopRetention() {
  if (timer) clearInterval(timer);
  timer = undefined;
  await running;
}
