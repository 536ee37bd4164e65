import crypto from "node:crypto";
import { logAction } from "~/features/activity/activity.server";
import type { Actor } from "~/lib/core/actor";
import { deleteBlob, putBlob } from "~/lib/db/blob-store.server";
import { nowIso, type Db } from "~/lib/db/db.server";
import { DomainError } from "~/lib/core/domain-error";
import { clearPageCache } from "~/lib/http/page-cache.server";
import { site } from "~/lib/core/site";
import { badgeUploadKey, badgeUploadName } from "./badge-image.server";
import type { TeamBadgeCreateInput, TeamBadgeDetailsInput } from "./team-badge-admin.schema";
import { badgeImagePath } from "./team-badges";
import type { TeamBadgesTable } from "./team-badges.tables";
import { findTeamBadgeRow } from "./team-badges.server";
import type { TeamBadgeHolderInput } from "./team-badges.schema";

export const ID_TAKEN = (id: string) => `The id ${id} is already taken: a badge's id is fixed once issued, and never given twice.`;
const NO_SUCH_BADGE = "No team badge with that id.";

/** A new id in the old site's shape: 'b' and four hex digits (b6d56); longer if those run out. */
export async function newTeamBadgeId(db: Db): Promise<string> {
  for (let attempt = 0; attempt < 60; attempt++) {
    const id = `b${crypto.randomBytes(4).toString("hex").slice(0, attempt < 40 ? 4 : 6)}`;
    if (!(await findTeamBadgeRow(db, id))) return id;
  }
  throw new DomainError("conflict", "Could not find a free badge id. Please choose one.");
}

/** Stores a checked picture for a badge; returns its name (what team_badges.image_file holds). */
async function storeUpload(db: Db, id: string, png: Buffer) {
  const name = badgeUploadName(id, png);
  await putBlob(db, badgeUploadKey(name), png);
  return name;
}

/** The row a new badge is, from what staff (or the import) gave. */
export function newTeamBadgeRow(
  id: string,
  b: Pick<TeamBadgeCreateInput, "title" | "subtitle" | "category" | "description" | "progress" | "earned" | "ownerName" | "holderEmail" | "issuedAt">,
  opts: { sort: number; imageFile: string | null; icon?: string },
): TeamBadgesTable {
  return {
    id,
    title: b.title,
    subtitle: b.subtitle,
    description: b.description,
    category: b.category,
    progress: b.earned ? 100 : b.progress,
    earned: b.earned ? 1 : 0,
    owner_name: b.earned ? b.ownerName : "",
    issued_at: b.earned ? b.issuedAt : "",
    icon: opts.icon ?? "",
    colour: "",
    image_src: badgeImagePath(id),
    sort: opts.sort,
    holder_email: b.earned ? b.holderEmail : "",
    revoked_at: null,
    revocation_reason: "",
    image_file: opts.imageFile,
    retired_at: null,
  };
}

/** After every listed badge. */
export async function nextTeamBadgeSort(db: Db) {
  const row = await db.selectFrom("team_badges").select((eb) => eb.fn.max("sort").as("sort")).executeTakeFirst();
  return Number(row?.sort ?? 0) + 10;
}

/**
 * A new team badge, with the id staff chose (kept as given, lower case) or a generated one.
 * An id already taken, by any badge (retired ones too), is refused: ids are never reused.
 */
export async function createTeamBadge(db: Db, input: TeamBadgeCreateInput, image: Buffer | null, actor: Actor): Promise<{ id: string }> {
  const id = input.id ?? (await newTeamBadgeId(db));
  if (await findTeamBadgeRow(db, id)) throw new DomainError("conflict", ID_TAKEN(id), "id");
  const imageFile = image ? await storeUpload(db, id, image) : null;
  try {
    await db.insertInto("team_badges").values(newTeamBadgeRow(id, input, { sort: await nextTeamBadgeSort(db), imageFile })).execute();
  } catch (e) {
    if (imageFile) await deleteBlob(db, badgeUploadKey(imageFile));
    // Two staff creating the same id at once: the second is told, as above.
    if (await findTeamBadgeRow(db, id)) throw new DomainError("conflict", ID_TAKEN(id), "id");
    throw e;
  }
  clearPageCache("/badges");
  await logAction(db, actor, {
    type: "team_badges.create",
    message: `Team badge ${id} created: ${input.title}${input.earned ? `, issued to ${input.ownerName}` : ""}`,
    meta: { id, title: input.title, earned: input.earned, image: imageFile ? "uploaded" : "drawn" },
  });
  return { id };
}

/** A badge's title, team, category, description, progress and (when sent) a new picture; never its id. */
export async function updateTeamBadgeDetails(db: Db, input: TeamBadgeDetailsInput, image: Buffer | null, actor: Actor) {
  const before = await findTeamBadgeRow(db, input.id);
  if (!before) throw new DomainError("not_found", NO_SUCH_BADGE);
  const imageFile = image ? await storeUpload(db, before.id, image) : before.image_file;
  await db
    .updateTable("team_badges")
    .set({
      title: input.title,
      subtitle: input.subtitle,
      category: input.category,
      description: input.description,
      progress: before.earned ? before.progress : input.progress,
      image_file: imageFile,
    })
    .where("id", "=", before.id)
    .execute();
  if (before.image_file && before.image_file !== imageFile) await deleteBlob(db, badgeUploadKey(before.image_file));
  clearPageCache("/badges");
  await logAction(db, actor, {
    type: "team_badges.details",
    message: `Team badge ${before.id} details saved${image ? " with a new picture" : ""}`,
    meta: { id: before.id, title: input.title, image: image ? "uploaded" : "unchanged" },
  });
}

/** Issues a badge not yet earned: its holder, their email and the issue date. */
export async function issueTeamBadge(db: Db, input: TeamBadgeHolderInput, actor: Actor) {
  const done = await db
    .updateTable("team_badges")
    .set({ earned: 1, progress: 100, owner_name: input.ownerName, holder_email: input.holderEmail.toLowerCase(), issued_at: input.issuedAt })
    .where("id", "=", input.id)
    .where("earned", "=", 0)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw new DomainError("conflict", "Only a badge not yet issued can be issued.");
  clearPageCache("/badges");
  await logAction(db, actor, { type: "team_badges.issue", message: `Team badge ${input.id} issued to ${input.ownerName}`, meta: { id: input.id, issuedAt: input.issuedAt } });
}

/**
 * Retires a badge: gone from /badges, its id still taken. An issued badge's shared links keep
 * answering, and its Open Badges record says revoked (with the reason, or 'Retired by …'), so
 * anyone checking a shared badge learns it no longer stands instead of finding nothing.
 */
export async function retireTeamBadge(db: Db, id: string, reason: string, actor: Actor) {
  const row = await findTeamBadgeRow(db, id);
  if (!row) throw new DomainError("not_found", NO_SUCH_BADGE);
  if (row.retired_at) throw new DomainError("conflict", "That badge is already retired.");
  const at = nowIso();
  const why = reason || `Retired by ${site.name}.`;
  // Revoked at the very time it was retired: restoring it takes that revocation back too.
  const revoke = row.earned === 1 && !row.revoked_at ? { revoked_at: at, revocation_reason: why } : {};
  await db.updateTable("team_badges").set({ retired_at: at, ...revoke }).where("id", "=", row.id).execute();
  clearPageCache("/badges");
  await logAction(db, actor, { type: "team_badges.retire", message: `Team badge ${row.id} retired${reason ? `: ${reason}` : ""}`, meta: { id: row.id, reason: why } });
}

/** Brings a retired badge back to /badges (and takes back the revocation retiring it made). */
export async function restoreRetiredTeamBadge(db: Db, id: string, actor: Actor) {
  const row = await findTeamBadgeRow(db, id);
  if (!row?.retired_at) throw new DomainError("conflict", "Only a retired badge can be brought back.");
  const unrevoke = row.revoked_at === row.retired_at ? { revoked_at: null, revocation_reason: "" } : {};
  await db.updateTable("team_badges").set({ retired_at: null, ...unrevoke }).where("id", "=", row.id).execute();
  clearPageCache("/badges");
  await logAction(db, actor, { type: "team_badges.unretire", message: `Team badge ${row.id} back on the badges page`, meta: { id: row.id } });
}
