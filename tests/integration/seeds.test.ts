import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase, type Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { runSeeds, seeds } from "../../db/seed";
import { freshApp } from "../support/reset";

const opened: Db[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy();
});

/** A second connection to the same file: another process starting on the same database. */
function anotherProcess(file: string) {
  const db = openDatabase(file);
  opened.push(db);
  return db;
}

describe("seeds when several processes start together", () => {
  it("two processes seeding one new database at once: both finish, each seed runs once", async () => {
    await freshApp();
    const file = path.join(env().dataDir, `twin-${Date.now()}.db`);
    const a = anotherProcess(file);
    const b = anotherProcess(file);
    await migrateToLatest(a);
    await Promise.all([runSeeds(a), runSeeds(b)]);
    const runs = await a.selectFrom("seed_runs").selectAll().orderBy("name").execute();
    expect(runs.map((r) => r.name)).toEqual(seeds.map((s) => s.name).sort());
    for (const r of runs) expect(r.ran_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The catalogue seed ran once: its items are there once each.
    const items = await a.selectFrom("merch_items").select("id").execute();
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });

  it("a claim left by a process that died mid-seed is taken over after ten minutes, not before", async () => {
    const db = await freshApp();
    const name = seeds[1]!.name;
    const died = new Date("2026-11-25T08:00:00.000Z");
    await db.insertInto("seed_runs").values({ name, ran_at: `running since ${died.toISOString()}` }).execute();
    for (const s of seeds) if (s.name !== name) await db.insertInto("seed_runs").values({ name: s.name, ran_at: died.toISOString() }).execute();

    await runSeeds(db, () => new Date(died.getTime() + 5 * 60_000));
    expect((await db.selectFrom("seed_runs").select("ran_at").where("name", "=", name).executeTakeFirstOrThrow()).ran_at).toBe(
      `running since ${died.toISOString()}`,
    );
    const later = new Date(died.getTime() + 11 * 60_000);
    await runSeeds(db, () => later);
    expect((await db.selectFrom("seed_runs").select("ran_at").where("name", "=", name).executeTakeFirstOrThrow()).ran_at).toBe(later.toISOString());
  });
});
