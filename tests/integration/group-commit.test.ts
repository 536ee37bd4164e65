import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BadgeOrderSchema } from "~/features/event-badges/badge-order.schema";
import { submitBadgeOrder } from "~/features/event-badges/badge-orders.server";
import { isPostgres } from "~/lib/db/dialect.server";
import { DomainError } from "~/lib/core/domain-error";
import { inGroupCommit, recentBatchSizes } from "~/lib/db/group-commit.server";
import { freshApp, testDatabaseKind } from "../support/reset";
import { migrateToLatest, openDatabase, type Db } from "~/lib/db/db.server";
import { startTestPostgres } from "../support/postgres.mjs";

const USED =
  "This payment confirmation code has already been used for an order. Check the code, or email us if you think this is a mistake.";

let codes = 0;
const nextCode = () => `GC${String(++codes).padStart(8, "0")}`;
const order = (n: number, paymentReference = nextCode()) =>
  BadgeOrderSchema.parse({ tierKey: `t${(n % 5) + 1}`, name: `Group Supporter ${n}`, email: `group-${n}@example.org`, paymentReference });

/**
 * Another connection to the same database, opened apart from the site's: what it reads is what
 * was committed, not what the site's open transaction holds.
 */
type Outside = { storedIds: (ids: string[]) => Promise<Set<string>>; close: () => Promise<void> };
async function outside(): Promise<Outside> {
  if (testDatabaseKind === "postgres") {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    return {
      storedIds: async (ids) =>
        new Set((await client.query<{ id: string }>("select id from badge_orders where id = any($1)", [ids])).rows.map((r) => r.id)),
      close: () => client.end(),
    };
  }
  const reader = new Database(process.env.DATABASE_PATH!, { readonly: true, fileMustExist: true });
  return {
    storedIds: async (ids) =>
      new Set(
        (reader.prepare(`select id from badge_orders where id in (${ids.map(() => "?").join(",")})`).all(...ids) as { id: string }[]).map(
          (r) => r.id,
        ),
      ),
    close: async () => void reader.close(),
  };
}

describe(`group commit of orders placed at once (${testDatabaseKind})`, () => {
  let db: Db;
  let reader: Outside;
  beforeEach(async () => {
    db = await freshApp();
    reader = await outside();
  });
  afterEach(async () => {
    await reader.close();
  });

  it("answers each order only once it is committed, shares commits, and a refused order loses no other", async () => {
    const taken = nextCode();
    const first = await submitBadgeOrder(db, order(0, taken), null);

    // 40 orders at once; the 7th and the 23rd reuse a payment code that is already taken.
    const seenAtAnswer = new Map<string, boolean>();
    const attempts = Array.from({ length: 40 }, (_, i) =>
      submitBadgeOrder(db, order(i + 1, i === 6 || i === 22 ? taken : nextCode()), null).then(async (placed) => {
        // At the moment the order is answered, a connection of its own already reads it.
        seenAtAnswer.set(placed.id, (await reader.storedIds([placed.id])).has(placed.id));
        return placed;
      }),
    );
    const settled = await Promise.allSettled(attempts);

    const refused = settled.flatMap((s, i) => (s.status === "rejected" ? [[i, s.reason] as const] : []));
    expect(refused.map(([i]) => i)).toEqual([6, 22]);
    for (const [, reason] of refused) {
      expect(reason).toBeInstanceOf(DomainError);
      expect((reason as DomainError).message).toBe(USED);
    }
    const placed = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.id] : []));
    expect(placed).toHaveLength(38);
    expect([...seenAtAnswer.values()].every(Boolean)).toBe(true);
    expect(seenAtAnswer.size).toBe(38);

    // On SQLite they shared commits (PostgreSQL groups concurrent commits itself).
    if (!isPostgres(db)) expect(Math.max(...recentBatchSizes(db))).toBeGreaterThan(1);

    // Every answered order is stored once, the refused ones not at all, the code still the first order's.
    const stored = await reader.storedIds([first.id, ...placed]);
    expect(stored.size).toBe(39);
    const owners = await db.selectFrom("badge_orders").select("id").where("payment_reference", "=", taken).execute();
    expect(owners.map((r) => r.id)).toEqual([first.id]);
    const ledger = await db.selectFrom("payment_codes").select("order_id").where("code", "=", taken).execute();
    expect(ledger.map((r) => r.order_id)).toEqual([first.id]);
  });

  it("undoes only the write that failed: what it wrote before failing is gone, the rest of its batch is kept", async () => {
    const write = (code: string, fail: boolean) =>
      inGroupCommit(db, async (trx) => {
        await trx.insertInto("payment_codes").values({ code, kind: "badge", order_id: `BO-${code.slice(-6)}`, created_at: new Date().toISOString() }).execute();
        if (fail) throw new Error(`write ${code} failed after writing`);
        return code;
      });
    const codesHere = Array.from({ length: 12 }, () => nextCode());
    const settled = await Promise.allSettled(codesHere.map((code, i) => write(code, i % 4 === 1)));
    expect(settled.map((s) => s.status)).toEqual(codesHere.map((_, i) => (i % 4 === 1 ? "rejected" : "fulfilled")));
    if (!isPostgres(db)) expect(Math.max(...recentBatchSizes(db))).toBeGreaterThan(1);
    const rows = await db.selectFrom("payment_codes").select("code").where("code", "in", codesHere).orderBy("code").execute();
    expect(rows.map((r) => r.code)).toEqual(codesHere.filter((_, i) => i % 4 !== 1));
  });

  it("a commit that fails is the answer of every write in it, and none of them is stored", async () => {
    // A deferred foreign key is checked at COMMIT.
    await sql`create table gc_parent (id integer primary key)`.execute(db);
    await sql`create table gc_probe (id integer primary key, ref integer references gc_parent (id) deferrable initially deferred)`.execute(db);
    const writes = [1, 2, 3, 4].map((n) =>
      inGroupCommit(db, async (trx) => {
        // The third write leaves what the commit refuses: a reference to a missing row.
        await sql`insert into gc_probe (id, ref) values (${n}, ${n === 3 ? 999 : null})`.execute(trx);
        return n;
      }),
    );
    const settled = await Promise.allSettled(writes);
    const left = await sql<{ n: number }>`select count(*) as n from gc_probe`.execute(db);
    if (isPostgres(db)) {
      // A transaction each: only the write whose own commit failed.
      expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
      expect(Number(left.rows[0]!.n)).toBe(3);
    } else {
      // One batch, one commit: no order was told it was saved.
      expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
      expect(Number(left.rows[0]!.n)).toBe(0);
    }
  });
});

describe.runIf(testDatabaseKind === "sqlite")("group commit and a crash (SQLite)", () => {
  it("every answered order is in the database files the moment it is answered, as a crash would leave them", async () => {
    const db = await freshApp();
    const file = process.env.DATABASE_PATH!;
    const copies = fs.mkdtempSync(path.join(os.tmpdir(), "group-commit-crash-"));
    try {
      const answered: string[] = [];
      const taken = nextCode();
      await submitBadgeOrder(db, order(0, taken), null);
      const settled = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) =>
          submitBadgeOrder(db, order(i + 1, i === 10 ? taken : nextCode()), null).then((placed) => {
            answered.push(placed.id);
            return placed;
          }),
        ),
      );
      expect(settled.filter((s) => s.status === "rejected")).toHaveLength(1);
      // The site's connection is still open, nothing checkpointed: copy the files as they are
      // on disk now (database, write-ahead log), as a process killed here would leave them.
      for (const suffix of ["", "-wal"]) {
        if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, path.join(copies, `site.db${suffix}`));
      }
      const reopened = new Database(path.join(copies, "site.db"));
      try {
        const ids = new Set((reopened.prepare("select id from badge_orders").all() as { id: string }[]).map((r) => r.id));
        expect(answered).toHaveLength(29);
        for (const id of answered) expect(ids.has(id)).toBe(true);
        expect(reopened.prepare("pragma integrity_check").get()).toEqual({ integrity_check: "ok" });
      } finally {
        reopened.close();
      }
    } finally {
      fs.rmSync(copies, { recursive: true, force: true });
    }
  });
});

describe.runIf(testDatabaseKind === "postgres")("group commit and a crash (PostgreSQL)", () => {
  it("every answered order is there after the database server crashes and recovers", async () => {
    await freshApp();
    // A cluster of its own, with its disk syncs on, to crash and restart.
    const cluster = (await startTestPostgres({ durable: true, own: true })) as {
      url?: string;
      reason?: string;
      crash: () => void;
      resume: () => void;
      stop: () => void;
    };
    if (!cluster.url) throw new Error(`no PostgreSQL: ${cluster.reason}`);
    try {
      let site = openDatabase(cluster.url, { poolSize: 4 });
      await migrateToLatest(site);
      const taken = nextCode();
      await submitBadgeOrder(site, order(0, taken), null);
      const answered: string[] = [];
      const settled = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) =>
          submitBadgeOrder(site, order(i + 1, i === 10 ? taken : nextCode()), null).then((placed) => {
            answered.push(placed.id);
            return placed;
          }),
        ),
      );
      expect(settled.filter((s) => s.status === "rejected")).toHaveLength(1);
      expect(answered).toHaveLength(29);
      cluster.crash();
      await site.destroy().catch(() => {});
      cluster.resume();
      site = openDatabase(cluster.url, { poolSize: 1 });
      try {
        const rows = await site.selectFrom("badge_orders").select("id").where("id", "in", answered).execute();
        expect(rows).toHaveLength(29);
      } finally {
        await site.destroy();
      }
    } finally {
      cluster.stop();
    }
  });
});
