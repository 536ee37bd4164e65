import { badgeShareNotFoundPage, badgeSharePage, findTeamBadge, readBadgeShare } from "~/features/team-badges/team-badges.server";
import { sharePageResponse } from "~/lib/http/share-page.server";
import type { Route } from "./+types/badge-share";

const FILE = /^([a-z0-9][a-z0-9_-]{0,39})\.html$/i;

/** /share/{id}.html: link-preview tags for a team badge, then on to /badges?id={id}. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = FILE.exec(params.file)?.[1];
  const badge = id ? await findTeamBadge(context.db, id) : null;
  if (!badge) return sharePageResponse(badgeShareNotFoundPage(), false);
  return sharePageResponse(badgeSharePage(badge, await readBadgeShare(context.db, badge.id)), true);
}
