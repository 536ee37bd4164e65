import { issuerDocument } from "~/features/open-badges/open-badges";
import { env } from "~/lib/env.server";
import { openBadgesDocument } from "./open-badges-response.server";
import type { Route } from "./+types/open-badges-issuer";

/** GET /badges/issuer.json: the issuer profile every BadgeClass names (Open Badges 2.0). */
export function loader({ request }: Route.LoaderArgs) {
  return openBadgesDocument(request, issuerDocument(env().publicUrl), 3600);
}
