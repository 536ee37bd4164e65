import { badgeClassFor } from "~/features/open-badges/open-badges.server";
import { idOfFile, openBadgesDocument, openBadgesNotFound } from "./open-badges-response.server";
import type { Route } from "./+types/open-badges-class";

/** GET /badges/classes/{id}.json: a team badge's or an event tier's BadgeClass. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const id = idOfFile(params.file, "json");
  const doc = id ? await badgeClassFor(context.db, id) : null;
  return doc ? openBadgesDocument(request, doc) : openBadgesNotFound("No badge class with that id.");
}
