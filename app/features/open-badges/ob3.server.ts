import { exportJWK, SignJWT } from "jose";
import type { Db } from "~/lib/db/db.server";
import { env } from "~/lib/server/env.server";
import { getSigningKey } from "~/lib/db/secrets.server";
import { site } from "~/lib/core/site";
import { obPaths } from "../badge-art/open-badge-paths";
import type { Award } from "./open-badges";
import { findAward, hashedRecipient } from "./open-badges.server";

/**
 * Open Badges 3.0: each award as a W3C Verifiable Credential of type OpenBadgeCredential,
 * signed as a VC-JWT (EdDSA, Ed25519) with the site's key. The issuer's public key is published
 * as a JWK set (/badges/jwks.json, also named by the JWT header's `kid`); revoked credentials are
 * listed in the 1EdTech revocation list each credential points to (/badges/revocations.json).
 */
export const OB3_CONTEXT = ["https://www.w3.org/ns/credentials/v2", "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"];
export const KEY_ID = "key-1";

const origin = () => env().publicUrl;
export const ob3Paths = { jwks: "/badges/jwks.json", revocations: "/badges/revocations.json", profile: "/badges/issuer.json" };

export async function publicJwks() {
  const jwk = await exportJWK(getSigningKey().publicKey);
  return { keys: [{ ...jwk, kid: `${origin()}${ob3Paths.jwks}#${KEY_ID}`, use: "sig", alg: "EdDSA" }] };
}

export function credentialOf(a: Award) {
  const o = origin();
  const recipient = hashedRecipient(a);
  return {
    "@context": OB3_CONTEXT,
    id: `${o}${obPaths.credential(a.id)}`,
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    issuer: { id: `${o}${ob3Paths.profile}`, type: ["Profile"], name: site.name, url: o, email: site.contactEmail },
    validFrom: a.issuedOn,
    name: a.className,
    credentialSubject: {
      type: ["AchievementSubject"],
      identifier: [
        {
          type: "IdentityObject",
          identityHash: recipient.identity,
          identityType: recipient.type === "email" ? "emailAddress" : "url",
          hashed: true,
          salt: recipient.salt,
        },
      ],
      achievement: {
        id: `${o}${obPaths.badgeClass(a.classId)}`,
        type: ["Achievement"],
        name: a.className,
        description: a.classDescription,
        criteria: { narrative: a.criteria },
        image: { id: a.classImage.startsWith("http") ? a.classImage : `${o}${a.classImage}`, type: "Image" },
      },
    },
    credentialStatus: { id: `${o}${ob3Paths.revocations}`, type: "1EdTechRevocationList" },
  };
}

/** The award's credential as a compact JWS (VC-JWT), or null when there is no such award. */
export async function credentialJwt(db: Db, id: string): Promise<string | null> {
  const a = await findAward(db, id);
  if (!a) return null;
  const vc = credentialOf(a);
  // The credential both as the payload (VC 2.0's JOSE securing, what OB 3.0 moved to) and in the
  // `vc` claim (the VC 1.1 JWT form earlier OB 3.0 verifiers read): either kind finds it.
  return new SignJWT({ vc, ...vc })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT", kid: `${origin()}${ob3Paths.jwks}#${KEY_ID}` })
    .setIssuer(vc.issuer.id)
    .setJti(vc.id)
    .setSubject(vc.id)
    .setNotBefore(Math.floor(Date.parse(a.issuedOn) / 1000))
    .setIssuedAt()
    .sign(getSigningKey().privateKey);
}

/** The 1EdTech revocation list: every revoked credential, with the reason. */
export async function revocationList(db: Db) {
  const o = origin();
  const [orders, team] = await Promise.all([
    db
      .selectFrom("badge_orders")
      .select(["id", "badge_revocation_reason as reason", "status"])
      .where((eb) => eb.or([eb("badge_revoked_at", "is not", null), eb.and([eb("status", "=", "rejected"), eb("approved_at", "is not", null)])]))
      .execute(),
    db.selectFrom("team_badges").select(["id", "revocation_reason as reason"]).where("revoked_at", "is not", null).execute(),
  ]);
  return {
    id: `${o}${ob3Paths.revocations}`,
    issuer: `${o}${ob3Paths.profile}`,
    revokedCredentials: [
      ...orders.map((r) => ({ id: `${o}${obPaths.credential(r.id)}`, revocationReason: r.reason || "The order this badge was for was cancelled." })),
      ...team.map((r) => ({ id: `${o}${obPaths.credential(r.id)}`, revocationReason: r.reason || "Revoked by the issuer." })),
    ],
  };
}
