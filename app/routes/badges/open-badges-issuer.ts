import { issuerDocument } from "~/features/open-badges/open-badges";
import { publicJwks } from "~/features/open-badges/ob3.server";
import { env } from "~/lib/server/env.server";
import { openBadgesDocument } from "./open-badges-response.server";
import type { Route } from "./+types/open-badges-issuer";

/**
 * GET /badges/issuer.json: the issuer profile every BadgeClass names (Open Badges 2.0), which
 * also publishes the key Open Badges 3.0 credentials are signed with, as a JWK.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const issuer = issuerDocument(env().publicUrl);
  const [key] = (await publicJwks()).keys;
  const verificationMethod = [{ id: key!.kid, type: "JsonWebKey", controller: issuer.id, publicKeyJwk: key }];
  return openBadgesDocument(request, { ...issuer, verificationMethod }, 3600);
}
