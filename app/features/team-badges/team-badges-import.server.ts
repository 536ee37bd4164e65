import { getBlob, hasBlob, putBlob } from "~/lib/db/blob-store.server";
import type { Db } from "~/lib/db/db.server";
import { nowIso } from "~/lib/db/db.server";
import { badgeUploadKey, badgeUploadName } from "./badge-image.server";
import { teamBadgeSeed } from "./seed-data";
import type { TeamBadgeCreateInput } from "./team-badge-admin.schema";
import { newTeamBadgeRow, nextTeamBadgeSort } from "./team-badges-admin.server";
import { findTeamBadgeRow } from "./team-badges.server";
import type { TeamBadgesTable } from "./team-badges.tables";

/**
 * The team badges' part of moving the old site in (app/features/legacy-import): the old site's
 * badges under their own ids (the ids holders shared), their pictures from open/badges/, and
 * the demo badges of the seed taken away once real ones come in.
 */

/** The seed's badge fields, compared to tell a demo badge staff never touched. */
const SEED_FIELDS = [
  "title",
  "subtitle",
  "description",
  "category",
  "progress",
  "earned",
  "owner_name",
  "issued_at",
  "icon",
  "colour",
  "image_src",
  "holder_email",
  "revoked_at",
  "revocation_reason",
  "image_file",
  "retired_at",
] as const satisfies readonly (keyof TeamBadgesTable)[];

const SEED_NAME = "team-badges";

/**
 * The seed is a demo, not data: once real badges come in, the seed's badges that staff never
 * changed (same fields as seeded, no share file set) are removed, and the seed is marked as run
 * so it never adds them later (a database the site has not started on yet). A seed badge staff
 * changed stays. Returns the ids removed.
 */
export async function removeUntouchedSeedBadges(db: Db): Promise<string[]> {
  await db
    .insertInto("seed_runs")
    .values({ name: SEED_NAME, ran_at: nowIso() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const removed: string[] = [];
  for (const seed of teamBadgeSeed) {
    const row = await db.selectFrom("team_badges").selectAll().where("id", "=", seed.id).executeTakeFirst();
    if (!row || SEED_FIELDS.some((f) => row[f] !== seed[f])) continue;
    if (await hasBlob(db, `team-badges/shares/${seed.id}.json`)) continue;
    await db.deleteFrom("team_badges").where("id", "=", seed.id).execute();
    removed.push(seed.id);
  }
  return removed;
}

export type ImportedBadge = Pick<TeamBadgeCreateInput, "title" | "subtitle" | "category" | "description" | "progress" | "earned" | "ownerName" | "holderEmail" | "issuedAt"> & {
  id: string;
  icon: string;
};

/**
 * An old badge under its own id. 'exists' when that id is here already as the same badge
 * (same title and holder); 'taken' when another badge here has it.
 */
export async function importTeamBadge(db: Db, b: ImportedBadge): Promise<"added" | "exists" | { taken: TeamBadgesTable }> {
  const there = await findTeamBadgeRow(db, b.id);
  if (there) {
    const same = there.title === b.title && there.owner_name === (b.earned ? b.ownerName : "");
    return same ? "exists" : { taken: there };
  }
  await db.insertInto("team_badges").values(newTeamBadgeRow(b.id, b, { sort: await nextTeamBadgeSort(db), imageFile: null, icon: b.icon })).execute();
  return "added";
}

/** A badge's picture (already checked and re-encoded); 'has-one' when staff uploaded one already. */
export async function importTeamBadgePicture(db: Db, id: string, png: Buffer, opts: { store: boolean }): Promise<"added" | "has-one" | "no-badge"> {
  const row = await findTeamBadgeRow(db, id);
  if (!row) return "no-badge";
  if (row.image_file && (await getBlob(db, badgeUploadKey(row.image_file)))) return "has-one";
  const name = badgeUploadName(row.id, png);
  if (opts.store) await putBlob(db, badgeUploadKey(name), png);
  await db.updateTable("team_badges").set({ image_file: name }).where("id", "=", row.id).execute();
  return "added";
}
