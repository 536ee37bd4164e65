import type { Kysely } from "kysely";
import { teamBadgesSeed } from "./team-badges";

/**
 * The organisation's starting content. Each seed is idempotent (it only adds what is
 * missing), so it runs at every start and a restart never duplicates or overwrites
 * what staff have edited. Domains add their seed functions to this list.
 */
type Seed = { name: string; run: (db: Kysely<any>) => Promise<void> };

export const seeds: Seed[] = [teamBadgesSeed];

export async function runSeeds(db: Kysely<any>) {
  for (const seed of seeds) await seed.run(db);
}
