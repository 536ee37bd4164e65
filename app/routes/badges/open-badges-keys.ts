import { publicJwks, revocationList } from "~/features/open-badges/ob3.server";
import { openBadgesDocument } from "./open-badges-response.server";
import type { Route } from "./+types/open-badges-keys";

/** GET /badges/jwks.json (the key credentials are signed with) and /badges/revocations.json (revoked credentials). */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const { pathname } = url;
  if (pathname.endsWith("/jwks.json")) return openBadgesDocument(request, await publicJwks(), 3600);
  return openBadgesDocument(request, await revocationList(context.db), 60);
}
