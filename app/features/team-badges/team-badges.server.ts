import crypto from "node:crypto";
import sharp from "sharp";
import { logAction } from "~/features/activity/activity.server";
import type { Actor } from "~/lib/core/actor";
import { nowIso, type Db } from "~/lib/db/db.server";
import type { TeamBadgesTable } from "./team-badges.tables";
import { clearPageCache } from "~/lib/http/page-cache.server";
import { deleteBlob, getBlob, listBlobs, putBlob } from "~/lib/db/blob-store.server";
import { whatsAppShareUrl } from "~/lib/browser/share";
import { renderShareNotFound, renderSharePage } from "~/lib/http/share-page.server";
import { DomainError } from "~/lib/core/domain-error";
import { absoluteUrl } from "~/lib/http/http.server";
import { bakePng } from "../badge-art/bake.server";
import { obPaths } from "../badge-art/open-badge-paths";
import { renderTeamBadgePng } from "../badge-art/render.server";
import { site } from "~/lib/core/site";
import { badgeUploadKey } from "./badge-image.server";
import {
  BADGE_ID_PATTERN,
  badgeDownloadFilename,
  badgeImagePath,
  badgeVerifyPath,
  linkedInAddUrl,
  parseIssuedDate,
  type CategoryKey,
  type TeamBadge,
  type TeamBadgeAdminRow,
} from "./team-badges";
import {
  BadgeShareOverridesSchema,
  type BadgeShareOverrides,
  type GenerateBadgeShareInput,
} from "./team-badges.schema";

export function toTeamBadge(row: TeamBadgesTable): TeamBadge {
  return {
    id: row.id,
    title: row.title,
    subtitle: row.subtitle,
    description: row.description,
    category: row.category,
    progress: Math.max(0, Math.min(100, Math.round(row.progress))),
    earned: row.earned === 1,
    ownerName: row.owner_name,
    issuedAt: row.issued_at,
    icon: row.icon,
    colour: row.colour,
    imageSrc: row.image_src,
  };
}

/** The badges matching the /badges filters: text in title, holder or id; won only; category. */
export async function listTeamBadges(
  db: Db,
  filters: { q?: string; wonOnly?: boolean; category?: CategoryKey },
): Promise<TeamBadge[]> {
  // Retired badges are not listed; their ids stay taken and their records say revoked.
  let query = db.selectFrom("team_badges").selectAll().where("retired_at", "is", null).orderBy("sort").orderBy("id");
  if (filters.wonOnly) query = query.where("earned", "=", 1);
  if (filters.category && filters.category !== "all") query = query.where("category", "=", filters.category);
  const rows = (await query.execute()).map(toTeamBadge);
  const q = filters.q?.trim().toLocaleLowerCase("en");
  if (!q) return rows;
  // The list is short (tens of badges), and JavaScript folds case for every script, not
  // only ASCII as SQLite's lower() and LIKE do.
  return rows.filter((b) =>
    [b.title, b.ownerName, b.id].some((field) => field.toLocaleLowerCase("en").includes(q)),
  );
}

/** One badge's row by id, ignoring case; ids that could not be a badge id are not looked up. */
export async function findTeamBadgeRow(db: Db, id: string): Promise<TeamBadgesTable | null> {
  const wanted = id.trim();
  if (!BADGE_ID_PATTERN.test(wanted)) return null;
  const row = await db
    .selectFrom("team_badges")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["id"]), "=", wanted.toLowerCase()))
    .executeTakeFirst();
  return row ?? null;
}

/** One badge by id, ignoring case. */
export async function findTeamBadge(db: Db, id: string): Promise<TeamBadge | null> {
  const row = await findTeamBadgeRow(db, id);
  return row ? toTeamBadge(row) : null;
}

export type VerifyResult =
  | { status: "valid"; badge: TeamBadge }
  | { status: "revoked"; badge: TeamBadge; reason: string }
  | { status: "not-issued"; id: string }
  | { status: "not-found"; id: string };

/** 'Verify a badge by ID': an exact id match, any case, of a badge issued to someone. */
export async function verifyTeamBadge(db: Db, id: string): Promise<VerifyResult> {
  const row = await findTeamBadgeRow(db, id);
  if (!row) return { status: "not-found", id: id.trim() };
  const badge = toTeamBadge(row);
  if (!badge.earned) return { status: "not-issued", id: badge.id };
  if (row.revoked_at) return { status: "revoked", badge, reason: row.revocation_reason };
  return { status: "valid", badge };
}

// ---- Images ---------------------------------------------------------------------------------

/** Raise when the renderer's look changes, so cached images are drawn again. */
const RENDER_VERSION = 1;
/** Card and dialog sizes; the full 1080px image is what downloads and share cards use. */
export const IMAGE_WIDTHS = [256, 512] as const;

/** Drawn images are stored files under team-badges/ (every process serves the same bytes). */
const IMAGE_FOLDER = "team-badges";
const inFlight = new Map<string, Promise<Buffer>>();

/** An earned badge's file carries its Open Badges assertion's address (baked once, when stored). */
const bakedRecord = (b: TeamBadge) => (b.earned ? absoluteUrl(obPaths.assertion(b.id)) : null);

/** A hash of everything the file holds: a staff edit (or a new upload) gives a new file and a new ETag. */
function imageHash(b: TeamBadge, upload: string | null): string {
  const drawn = [RENDER_VERSION, b.id, b.title, b.subtitle, b.ownerName, b.issuedAt, b.category, b.earned, bakedRecord(b), ...(upload ? [upload] : [])];
  return crypto.createHash("sha256").update(JSON.stringify(drawn)).digest("hex").slice(0, 16);
}

async function renderFull(db: Db, badge: TeamBadge, upload: string | null): Promise<Buffer> {
  // A picture staff uploaded (already checked and re-encoded to 1080x1080) stands for the drawing.
  const uploaded = upload ? await getBlob(db, badgeUploadKey(upload)) : null;
  if (uploaded) return uploaded;
  // The renderer reads dates as Date strings: '12 Mar 2025' would be read in local time.
  const issuedAt = parseIssuedDate(badge.issuedAt)?.iso ?? badge.issuedAt;
  return renderTeamBadgePng({
    id: badge.id,
    title: badge.title,
    subtitle: badge.subtitle,
    ownerName: badge.ownerName,
    issuedAt,
    category: badge.category,
    earned: badge.earned,
  });
}


/** Earlier renders of this badge (other hashes or sizes than `keep`) are removed. */
async function pruneImages(db: Db, id: string, keep: string) {
  const names = await listBlobs(db, IMAGE_FOLDER);
  // Ids are [a-z0-9_-] only, so the id needs no escaping; the hash part keeps 'b1' from matching 'b1-x'.
  const ours = new RegExp(`^${id}-([0-9a-f]{16})(?:-w\\d+)?\\.png$`);
  await Promise.all(
    names
      .filter((n) => {
        const hash = ours.exec(n)?.[1];
        return hash !== undefined && hash !== keep;
      })
      .map((n) => deleteBlob(db, `${IMAGE_FOLDER}/${n}`)),
  );
}

async function cachedImage(db: Db, badge: TeamBadge, hash: string, width: number | null, upload: string | null): Promise<Buffer> {
  const name = width ? `${badge.id}-${hash}-w${width}.png` : `${badge.id}-${hash}.png`;
  const key = `${IMAGE_FOLDER}/${name}`;
  const stored = await getBlob(db, key);
  if (stored) return stored;
  let pending = inFlight.get(name);
  if (!pending) {
    pending = (async () => {
      let bytes: Buffer;
      if (width) {
        const full = await cachedImage(db, badge, hash, null, upload);
        bytes = await sharp(full).resize(width, width).png({ compressionLevel: 9, palette: true }).toBuffer();
      } else {
        bytes = await renderFull(db, badge, upload);
        await pruneImages(db, badge.id, hash);
      }
      // Every size is baked (a resize drops the chunk); served as stored, byte for byte.
      const record = bakedRecord(badge);
      if (record) bytes = bakePng(bytes, record);
      await putBlob(db, key, bytes);
      return bytes;
    })().finally(() => inFlight.delete(name));
    inFlight.set(name, pending);
  }
  return pending;
}

/**
 * The PNG for /open/badges/{id}.png: 1080x1080, or one of IMAGE_WIDTHS. Null when no such
 * badge. The ETag changes whenever the badge's drawn fields change.
 */
export async function teamBadgeImage(
  db: Db,
  id: string,
  opts: { width?: number | null } = {},
): Promise<{ badge: TeamBadge; etag: string; bytes: () => Promise<Buffer> } | null> {
  const row = await findTeamBadgeRow(db, id);
  if (!row) return null;
  const badge = toTeamBadge(row);
  const width = opts.width && (IMAGE_WIDTHS as readonly number[]).includes(opts.width) ? opts.width : null;
  const hash = imageHash(badge, row.image_file);
  return {
    badge,
    etag: `"${hash}${width ? `-w${width}` : ""}"`,
    bytes: () => cachedImage(db, badge, hash, width, row.image_file),
  };
}

// ---- Share files ----------------------------------------------------------------------------

/** Staff-set share pages are stored files (every process serves the same one); ids are checked first. */
const shareKey = (id: string) => `team-badges/shares/${id}.json`;

/** What staff set for a badge's share page, if anything. */
export async function readBadgeShare(db: Db, id: string): Promise<BadgeShareOverrides | null> {
  if (!BADGE_ID_PATTERN.test(id)) return null;
  const bytes = await getBlob(db, shareKey(id));
  if (!bytes) return null;
  const text = bytes.toString("utf8");
  try {
    const parsed = BadgeShareOverridesSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * 'Gen Share File': stores the share page's title, description, holder, date and image for
 * one badge (only the fields sent; the rest follow the badge), and logs who did it.
 */
export async function generateBadgeShare(
  db: Db,
  input: Pick<GenerateBadgeShareInput, "id"> & Partial<GenerateBadgeShareInput>,
  actor: Actor,
): Promise<{ id: string; path: string }> {
  const badge = await findTeamBadge(db, input.id);
  if (!badge) throw new DomainError("not_found", `No team badge has the id ${input.id}.`);
  const overrides: BadgeShareOverrides = {
    title: input.title,
    description: input.description,
    ownerName: input.ownerName,
    issuedAt: input.issuedAt,
    image: input.image,
    generatedAt: new Date().toISOString(),
  };
  await putBlob(db, shareKey(badge.id), `${JSON.stringify(overrides, null, 2)}\n`);
  const sharePath = `/share/${badge.id}.html`;
  await logAction(db, actor, {
    type: "badges.generate_share",
    message: `Share file generated for badge ${badge.id}`,
    meta: { id: badge.id, path: sharePath },
  });
  return { id: badge.id, path: sharePath };
}


/** The small page that /share/{id}.html answers: rich link previews, then on to /badges?id=. */
export function badgeSharePage(badge: TeamBadge, overrides: BadgeShareOverrides | null): string {
  const o = overrides ?? {};
  const title = o.title ?? badge.title;
  const holder = o.ownerName ?? badge.ownerName;
  const issued = o.issuedAt ?? badge.issuedAt;
  const description =
    o.description ??
    (badge.earned && holder
      ? `${holder} holds the ${badge.title} badge (${badge.subtitle}) from ${site.name}. ${badge.description}`
      : `${badge.title} (${badge.subtitle}): ${badge.description}`);
  const image = o.image
    ? /^https?:\/\//i.test(o.image)
      ? o.image
      : absoluteUrl(o.image)
    : // An earned badge's preview is its 1200x630 card (the square badge is the wrong shape for link previews).
      absoluteUrl(badge.earned ? obPaths.card(badge.id) : badgeImagePath(badge.id));
  const target = badgeVerifyPath(badge.id);
  const pageTitle = `${holder ? `${title}: ${holder}` : title} | ${site.name}`;
  const ogTitle = holder ? `${title}: ${holder}` : title;
  return renderSharePage({
    pageTitle,
    description,
    canonical: absoluteUrl(target),
    shareUrl: absoluteUrl(`/share/${badge.id}.html`),
    image,
    imageAlt: `${title} badge${holder ? ` issued to ${holder}` : ""}`,
    imageSize: { width: 1080, height: 1080 },
    ogType: "website",
    ogTitle,
    target,
    heading: title,
    lines: [badge.subtitle, ...(holder ? [`Issued to ${holder}${issued ? ` on ${issued}` : ""} · Badge ID ${badge.id}`] : [])],
    linkText: `View and verify this badge on ${site.name}`,
  });
}

export function badgeShareNotFoundPage(): string {
  return renderShareNotFound({
    title: "Badge not found",
    message: "We could not find that badge.",
    linkHref: "/badges",
    linkText: "Browse and verify badges",
  });
}

/** The dialog's outward links, absolute from PUBLIC_URL. */
export function badgeLinks(badge: TeamBadge) {
  const shareUrl = absoluteUrl(`/share/${badge.id}.html`);
  const verifyUrl = absoluteUrl(badgeVerifyPath(badge.id));
  const holder = badge.ownerName ? ` issued to ${badge.ownerName}` : "";
  return {
    shareUrl,
    verifyUrl,
    linkedInUrl: linkedInAddUrl(badge, { organizationName: site.name, verifyUrl }),
    whatsAppUrl: whatsAppShareUrl(`${badge.title} badge${holder}, ${site.name}: ${shareUrl}`),
    downloadName: badgeDownloadFilename(badge.title, badge.id),
  };
}

// ---- Staff editor (/admin/team-badges) ------------------------------------------------------

/** Every team badge for the staff editor, with what the public list leaves out. */
export async function listTeamBadgesForStaff(db: Db): Promise<TeamBadgeAdminRow[]> {
  const rows = await db.selectFrom("team_badges").selectAll().orderBy("sort").orderBy("id").execute();
  return rows.map((r) => ({
    ...toTeamBadge(r),
    holderEmail: r.holder_email,
    revoked: r.revoked_at ? { at: r.revoked_at, reason: r.revocation_reason } : null,
    retiredAt: r.retired_at,
    uploadedImage: r.image_file !== null,
  }));
}

async function changed(db: Db, id: string, done: { numUpdatedRows: bigint }, actor: Actor, type: string, message: string, meta: Record<string, unknown>) {
  if (Number(done.numUpdatedRows) !== 1) throw new DomainError("not_found", "No team badge with that id.");
  // /badges (and the verify pages under it) are cached for everyone: the change shows at once.
  clearPageCache("/badges");
  await logAction(db, actor, { type, message, meta: { id, ...meta } });
}

/** Sets an earned badge's holder, their email (for the Open Badges recipient) and its issue date. */
export async function updateTeamBadgeHolder(db: Db, input: { id: string; ownerName: string; holderEmail: string; issuedAt: string }, actor: Actor) {
  const done = await db
    .updateTable("team_badges")
    .set({ owner_name: input.ownerName, holder_email: input.holderEmail.toLowerCase(), issued_at: input.issuedAt })
    .where("id", "=", input.id)
    .where("earned", "=", 1)
    .executeTakeFirst();
  await changed(db, input.id, done, actor, "team_badges.holder", `Team badge ${input.id} holder set to ${input.ownerName}`, { ownerName: input.ownerName, issuedAt: input.issuedAt, email: input.holderEmail ? "set" : "none" });
}

/** Revokes an earned badge (reason required) or takes the revocation back (reason null). */
export async function setTeamBadgeRevoked(db: Db, id: string, reason: string | null, actor: Actor) {
  const done = await db
    .updateTable("team_badges")
    .set(reason === null ? { revoked_at: null, revocation_reason: "" } : { revoked_at: nowIso(), revocation_reason: reason })
    .where("id", "=", id)
    .where("earned", "=", 1)
    .executeTakeFirst();
  await changed(db, id, done, actor, reason === null ? "team_badges.restore" : "team_badges.revoke", reason === null ? `Team badge ${id} valid again` : `Team badge ${id} revoked: ${reason}`, reason === null ? {} : { reason });
}
