import type { Kysely } from "kysely";
import { teamBadgeSeed } from "../../app/features/team-badges/seed-data";

/** Adds the starting team badges whose ids are missing; staff edits are never overwritten. */
export async function seedTeamBadges(db: Kysely<any>) {
  await db
    .insertInto("team_badges")
    .values(teamBadgeSeed)
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

export const teamBadgesSeed = { name: "team-badges", run: seedTeamBadges };
