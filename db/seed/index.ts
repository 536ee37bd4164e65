import type { Kysely } from "kysely";
import { blogSeed } from "./blog";
import { merchSeed } from "./merch";
import { teamBadgesSeed } from "./team-badges";

/**
 * The organisation's starting content. Each seed runs once per database (recorded in
 * seed_runs), so a restart never brings back what staff deleted; each is also idempotent on
 * its own (it only adds what is missing). Give a changed seed a new name to run it again.
 */
type Seed = { name: string; run: (db: Kysely<any>) => Promise<void> };

export const seeds: Seed[] = [teamBadgesSeed, merchSeed, blogSeed];

const RUNNING = "running since ";
/** A claim older than this is a process that died mid-seed: another may take it over. */
const STALE_CLAIM_MS = 10 * 60_000;

/**
 * Runs each seed not yet run. Several processes may start together on one database: each seed
 * is claimed first (a row in seed_runs saying since when it runs), and only the process whose
 * claim was stored runs it; the others go on serving. A claim left by a process that died is
 * taken over after ten minutes.
 */
export async function runSeeds(db: Kysely<any>, now: () => Date = () => new Date()) {
  for (const seed of seeds) {
    if (!(await claim(db, seed.name, now()))) continue;
    await seed.run(db);
    await db.updateTable("seed_runs").set({ ran_at: now().toISOString() }).where("name", "=", seed.name).execute();
  }
}

async function claim(db: Kysely<any>, name: string, at: Date): Promise<boolean> {
  const mark = `${RUNNING}${at.toISOString()}`;
  const inserted = await db
    .insertInto("seed_runs")
    .values({ name, ran_at: mark })
    .onConflict((oc) => oc.column("name").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
  const row = await db.selectFrom("seed_runs").select("ran_at").where("name", "=", name).executeTakeFirst();
  const ranAt = String(row?.ran_at ?? "");
  if (!ranAt.startsWith(RUNNING)) return false;
  if (at.getTime() - Date.parse(ranAt.slice(RUNNING.length)) < STALE_CLAIM_MS) return false;
  const taken = await db.updateTable("seed_runs").set({ ran_at: mark }).where("name", "=", name).where("ran_at", "=", ranAt).executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}
