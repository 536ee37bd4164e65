import { credentialJwt } from "~/features/open-badges/ob3.server";
import { idOfFile, openBadgesNotFound } from "./open-badges-response.server";
import type { Route } from "./+types/open-badges-credential";

/** GET /badges/credentials/{id}.jwt: the award as an Open Badges 3.0 credential, signed (VC-JWT). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = idOfFile(params.file, "jwt");
  const jwt = id ? await credentialJwt(context.db, id) : null;
  if (!jwt) return openBadgesNotFound("No badge with that id.");
  return new Response(jwt, {
    headers: { "Content-Type": "application/vc+jwt", "Cache-Control": "public, max-age=60", "Access-Control-Allow-Origin": "*", "Content-Disposition": `inline; filename="${id}.jwt"` },
  });
}
