import crypto from "node:crypto";
import type { Actor } from "~/lib/core/actor";
import { nowIso, type Db } from "~/lib/db/db.server";
import type { TeamBadgesTable } from "../team-badges/team-badges.tables";
import { DomainError } from "~/lib/core/domain-error";
import { clearPageCache } from "~/lib/http/page-cache.server";
import { env } from "~/lib/server/env.server";
import { getSessionSecret } from "~/lib/db/secrets.server";
import { site } from "~/lib/core/site";
import { logAction } from "../activity/activity.server";
import { wallNameOf } from "../event-badges/wall";
import { findTier, formatKes } from "../event-badges/tiers";
import { categoryLabel, parseIssuedDate } from "../team-badges/team-badges";
import { findTeamBadgeRow, teamBadgeImage } from "../team-badges/team-badges.server";
import { obPaths } from "../badge-art/open-badge-paths";
import { renderShareCardPng } from "../badge-art/render.server";
import { categoryStyle } from "../badge-art/team-badge-template";
import { formatDateInWords, nairobiInstant } from "~/lib/core/nairobi-time";
import { keptPromises } from "~/lib/server/kept-promises.server";
import { AWARD_ID, CLASS_ID, assertionDocument, badgeClassDocument, type Award, type IdentityObject } from "./open-badges";

const origin = () => env().publicUrl;

/** A tier's BadgeClass picture: the site's own badge drawing for that tier, with no one's name. */
const tierImage = (key: string) => `/event/previews/image.png?${new URLSearchParams({ kind: "badge", tier: key, name: "Supporter" })}`;

function tierClass(key: string) {
  const tier = findTier(key);
  if (!tier) return null;
  return {
    classId: `tier-${tier.key}`,
    className: `${tier.name} supporter`,
    classDescription: `${tier.subtitle} of ${site.name}'s fundraising evenings: ${tier.impact}`,
    criteria: `Given to a supporter who chose the ${tier.name} tier (${formatKes(tier.amount)}) for one of ${site.name}'s fundraising evenings and whose M-Pesa payment the team verified.`,
    tags: ["supporter", "fundraising", tier.audience],
    classImage: tierImage(tier.key),
  };
}

function teamClass(r: Pick<TeamBadgesTable, "id" | "title" | "subtitle" | "description" | "category">) {
  return {
    classId: r.id,
    className: r.title,
    classDescription: r.subtitle || r.description || r.title,
    criteria: r.description || r.subtitle || `Awarded by ${site.name} to ${r.title}.`,
    tags: ["team", categoryLabel(r.category)],
    classImage: `/open/badges/${r.id}.png`,
  };
}


/** One awarded badge by its id (a team badge's, or an approved order's reference), revoked ones too; null otherwise. */
export async function findAward(db: Db, rawId: string): Promise<Award | null> {
  const id = rawId.trim();
  if (!AWARD_ID.test(id)) return null;
  if (/^BO-/i.test(id)) {
    const o = await db
      .selectFrom("badge_orders")
      .select(["id", "tier_key", "name", "email", "status", "approved_at", "rejected_at", "badge_revoked_at", "badge_revocation_reason"])
      .where("id", "=", id.toUpperCase())
      .executeTakeFirst();
    const cls = o ? tierClass(o.tier_key) : null;
    if (!o || !cls || !o.approved_at) return null;
    // Approved once and later cancelled: its badge may be out there, so it reads as revoked.
    const cancelled = o.status !== "approved" ? { at: o.rejected_at ?? o.approved_at, reason: "The order this badge was for was cancelled." } : null;
    return {
      id: o.id,
      kind: "supporter",
      ...cls,
      holder: wallNameOf({ name: o.name, wallName: "" }),
      recipient: { type: "email", value: o.email },
      issuedOn: o.approved_at,
      image: null,
      revoked: o.badge_revoked_at ? { at: o.badge_revoked_at, reason: o.badge_revocation_reason } : cancelled,
      colour: findTier(o.tier_key)?.theme.primary ?? "#123b5d",
    };
  }
  const r = await findTeamBadgeRow(db, id);
  const issued = r ? parseIssuedDate(r.issued_at) : null;
  if (!r || !r.earned || !issued) return null;
  return {
    id: r.id,
    kind: "team",
    ...teamClass(r),
    holder: r.owner_name,
    // No email on record: the holder's public verify page stands for them, hashed.
    recipient: r.holder_email ? { type: "email", value: r.holder_email } : { type: "url", value: `${origin()}${obPaths.verify(r.id)}` },
    issuedOn: nairobiInstant(issued.iso).toISOString(),
    image: `/open/badges/${r.id}.png`,
    revoked: r.revoked_at ? { at: r.revoked_at, reason: r.revocation_reason } : null,
    colour: categoryStyle(r.category).primary,
  };
}

/**
 * The recipient as the assertion names it: `sha256$` + hex(sha256(identity + salt)). The salt is
 * the award's own (derived from the site's secret and the id, so it is the same every time and
 * in every process); emails are compared in lower case, as verifiers do.
 */
export function hashedRecipient(a: Award): IdentityObject {
  const salt = crypto.createHmac("sha256", getSessionSecret()).update(`ob-salt:${a.id}`).digest("hex").slice(0, 16);
  const value = a.recipient.type === "email" ? a.recipient.value.trim().toLowerCase() : a.recipient.value;
  return { type: a.recipient.type, hashed: true, salt, identity: `sha256$${crypto.createHash("sha256").update(value + salt).digest("hex")}` };
}

export async function assertionFor(db: Db, id: string) {
  const a = await findAward(db, id);
  return a ? assertionDocument(origin(), a, hashedRecipient(a)) : null;
}

export async function badgeClassFor(db: Db, rawId: string) {
  const id = rawId.trim();
  if (!CLASS_ID.test(id)) return null;
  const fields = /^tier-/i.test(id) ? tierClass(id.slice(5).toLowerCase()) : await findTeamBadgeRow(db, id).then((r) => (r ? teamClass(r) : null));
  if (!fields) return null;
  return badgeClassDocument(origin(), { ...fields, id: "", kind: "team", holder: "", recipient: { type: "url", value: "" }, issuedOn: "", image: null, revoked: null, colour: "" });
}

export const REVOCATION_REASON_MAX = 300;

/** Staff revoke an approved supporter's badge (its assertion then says so, with the reason). */
export async function revokeSupporterBadge(db: Db, id: string, reason: string, actor: Actor) {
  const why = reason.trim().slice(0, REVOCATION_REASON_MAX);
  if (!why) throw new DomainError("invalid", "Give the reason for revoking: verifiers are shown it.", "reason");
  const done = await db
    .updateTable("badge_orders")
    .set({ badge_revoked_at: nowIso(), badge_revocation_reason: why })
    .where("id", "=", id)
    .where("status", "=", "approved")
    .where("badge_revoked_at", "is", null)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw new DomainError("conflict", "Only an approved order's badge that is not revoked yet can be revoked.");
  // Its verify page is cached for everyone: the next visitor sees Revoked. The supporter wall
  // and the goal bar (under /event) no longer count it.
  clearPageCache("/badges");
  clearPageCache("/event");
  await logAction(db, actor, { type: "open_badges.revoke", message: `Badge ${id} revoked: ${why}`, meta: { id, reason: why } });
}

/**
 * An award's 1200x630 link-preview card (og:image of its verify page and share page), drawn on
 * first request and kept in memory by what it shows, so an edit or a revocation draws it anew.
 */
const cards = keptPromises<Buffer>(64);

export async function shareCardFor(db: Db, id: string): Promise<{ png: Buffer; etag: string } | null> {
  const a = await findAward(db, id);
  if (!a) return null;
  const picture = a.kind === "team" ? await teamBadgeImage(db, a.id) : null;
  const fields = {
    title: a.className,
    holder: a.holder,
    line: `Issued ${formatDateInWords(a.issuedOn)} by ${site.name}`,
    verifyText: `${origin().replace(/^https?:\/\//, "")}${obPaths.verify(a.id)}`,
    colour: a.colour,
    verdict: a.revoked ? ("Revoked" as const) : ("Verified" as const),
  };
  const key = crypto.createHash("sha256").update(JSON.stringify([fields, picture?.etag ?? ""])).digest("base64url").slice(0, 22);
  const png = await cards(key, async () =>
    renderShareCardPng({ ...fields, picture: picture ? `data:image/png;base64,${(await picture.bytes()).toString("base64")}` : null }),
  );
  return { png, etag: `"${key}"` };
}
