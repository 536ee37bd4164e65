import { linkedInAddToProfileUrl, type LinkedInCertification } from "~/lib/browser/share";
import { site } from "~/lib/core/site";
import { obPaths } from "../badge-art/open-badge-paths";

/**
 * Open Badges 2.0, hosted verification (1EdTech ob_v2p0): the issuer profile, a BadgeClass per
 * team badge and per event tier, and an Assertion per awarded badge, each a JSON-LD document at
 * a stable address on PUBLIC_URL. These are the shapes; open-badges.server.ts fills them in.
 */
export const OB2_CONTEXT = "https://w3id.org/openbadges/v2";

/** Award ids: a team badge's id ('b5692') or an approved order's reference ('BO-7K2Q4M'). */
export const AWARD_ID = /^(BO-[0-9A-Z]{6}|[a-z0-9][a-z0-9_-]{0,39})$/i;
/** BadgeClass ids: a team badge's id, or an event tier's key ('tier-t3'). */
export const CLASS_ID = /^(tier-t[1-5]|[a-z0-9][a-z0-9_-]{0,39})$/i;

export type IdentityObject = { type: "email" | "url"; hashed: true; salt: string; identity: string };

export type Issuer = {
  "@context": typeof OB2_CONTEXT;
  id: string;
  type: "Issuer";
  name: string;
  url: string;
  email: string;
  image: string;
  description: string;
};

export type BadgeClass = {
  "@context": typeof OB2_CONTEXT;
  id: string;
  type: "BadgeClass";
  name: string;
  description: string;
  image: string;
  criteria: { narrative: string };
  issuer: string;
  tags: string[];
};

export type Assertion = {
  "@context": typeof OB2_CONTEXT;
  id: string;
  type: "Assertion";
  recipient: IdentityObject;
  badge: string;
  verification: { type: "hosted" };
  issuedOn: string;
  image?: string;
  evidence?: { id: string; narrative: string }[];
  narrative?: string;
};

/** What a revoked hosted assertion is reduced to (the spec allows this rather than a 404). */
export type RevokedAssertion = { "@context": typeof OB2_CONTEXT; id: string; type: "Assertion"; revoked: true; revocationReason: string };

export function issuerDocument(origin: string): Issuer {
  return {
    "@context": OB2_CONTEXT,
    id: `${origin}${obPaths.issuer}`,
    type: "Issuer",
    name: site.name,
    url: origin,
    email: site.contactEmail,
    image: `${origin}/brand/apple-touch-icon.png`,
    description: site.tagline,
  };
}

/** One award as the verify page and the documents need it, whichever programme it is from. */
export type Award = {
  id: string;
  kind: "team" | "supporter";
  classId: string;
  className: string;
  classDescription: string;
  criteria: string;
  tags: string[];
  /** The class's picture (a public address on this site). */
  classImage: string;
  /** The holder as the verify page names them (a supporter: their first name only). */
  holder: string;
  /** The recipient to hash: an email, or the award's verify page when no email is known. */
  recipient: { type: "email" | "url"; value: string };
  issuedOn: string;
  /** The award's own picture, baked (team badges; a supporter's badge is private to them). */
  image: string | null;
  revoked: { at: string; reason: string } | null;
  /** The colour its pictures are drawn in (the tier's, or the team category's). */
  colour: string;
};

export function badgeClassDocument(origin: string, a: Award): BadgeClass {
  return {
    "@context": OB2_CONTEXT,
    id: `${origin}${obPaths.badgeClass(a.classId)}`,
    type: "BadgeClass",
    name: a.className,
    description: a.classDescription,
    image: a.classImage.startsWith("http") ? a.classImage : `${origin}${a.classImage}`,
    criteria: { narrative: a.criteria },
    issuer: `${origin}${obPaths.issuer}`,
    tags: a.tags,
  };
}

export function assertionDocument(origin: string, a: Award, recipient: IdentityObject): Assertion | RevokedAssertion {
  const id = `${origin}${obPaths.assertion(a.id)}`;
  if (a.revoked) return { "@context": OB2_CONTEXT, id, type: "Assertion", revoked: true, revocationReason: a.revoked.reason || "Revoked by the issuer." };
  return {
    "@context": OB2_CONTEXT,
    id,
    type: "Assertion",
    recipient,
    badge: `${origin}${obPaths.badgeClass(a.classId)}`,
    verification: { type: "hosted" },
    issuedOn: a.issuedOn,
    ...(a.image ? { image: `${origin}${a.image}` } : {}),
    narrative: a.criteria,
  };
}

/** LinkedIn's add-to-profile link (best effort: LinkedIn may not prefill), and the same values to copy. */
export function linkedInFields(a: Award, verifyUrl: string) {
  const d = new Date(a.issuedOn);
  const fields: LinkedInCertification = {
    name: a.className,
    organizationName: site.name,
    issueYear: String(d.getUTCFullYear()),
    issueMonth: String(d.getUTCMonth() + 1),
    certUrl: verifyUrl,
    certId: a.id,
  };
  return { url: linkedInAddToProfileUrl(fields), fields };
}
