import { assertionFor } from "~/features/open-badges/open-badges.server";
import { idOfFile, openBadgesDocument, openBadgesNotFound } from "./open-badges-response.server";
import type { Route } from "./+types/open-badges-assertion";

/** GET /badges/assertions/{id}.json: an awarded badge (hosted verification); a revoked one says so. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = idOfFile(params.file, "json");
  const doc = id ? await assertionFor(context.db, id) : null;
  // Short-lived: a revocation must reach verifiers soon.
  return doc ? openBadgesDocument(request, doc, 60) : openBadgesNotFound("No badge with that id.");
}
