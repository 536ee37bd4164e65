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

export async function runSeeds(db: Kysely<any>) {
  for (const seed of seeds) {
    const done = await db.selectFrom("seed_runs").select("name").where("name", "=", seed.name).executeTakeFirst();
    if (done) continue;
    await seed.run(db);
    await db.insertInto("seed_runs").values({ name: seed.name, ran_at: new Date().toISOString() }).execute();
  }
}
