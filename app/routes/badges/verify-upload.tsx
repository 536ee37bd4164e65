import { data, redirect } from "react-router";
import { VerifyForms, VERIFY_UPLOAD_MAX_BYTES } from "~/features/open-badges/components/verify-forms";
import { awardIdOfUpload } from "~/features/open-badges/verify.server";
import { obPaths } from "~/features/badge-art/open-badge-paths";
import { onRefusal } from "~/lib/http/http.server";
import { pageMeta } from "~/lib/core/meta";
import { openUploadedFile } from "~/lib/http/multipart.server";
import { limits } from "~/lib/server/rate-limit.server";
import { admitPublicUpload } from "~/lib/http/upload-guard.server";
import badgesCss from "~/styles/badges.css?url";
import type { CacheHandle } from "~/lib/core/page-cache";
import type { PageHandle } from "~/features/analytics/page-view";
import type { Route } from "./+types/verify-upload";

export const handle = { page: "badges.verify", cacheSeconds: 300, cacheQuery: ["id"] } satisfies CacheHandle & PageHandle;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: badgesCss }];

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Verify a badge", description: "Check a badge issued by the organisation by its ID or its PNG file.", path: "/badges/verify" });

/** GET /badges/verify?id=…: on to that badge's page. */
export function loader({ request, url }: Route.LoaderArgs) {
  const id = (url.searchParams.get("id") ?? "").trim().slice(0, 60);
  if (id) return redirect(obPaths.verify(encodeURIComponent(id)));
  return null;
}

const TOO_LARGE = "That file is larger than 6 MB: a badge PNG is far smaller.";

/** POST /badges/verify: a baked PNG; its assertion names the badge, whose own page gives the verdict. */
export async function action({ request, context }: Route.ActionArgs) {
  // Counted per address and admitted (a slot site-wide) before a byte is read, like every upload.
  let slot: Awaited<ReturnType<typeof admitPublicUpload>> | undefined;
  return onRefusal(
    async () => {
      try {
        slot = await admitPublicUpload(request, context, VERIFY_UPLOAD_MAX_BYTES + 64 * 1024, { name: "badge-verify", rule: limits.badgeVerify });
        // Read as it arrives: a record too large to be ours ends the reading (never the whole file held).
        const file = await openUploadedFile(request, "badge", VERIFY_UPLOAD_MAX_BYTES + 64 * 1024);
        const found = file ? await awardIdOfUpload(context.db, file.pieces, VERIFY_UPLOAD_MAX_BYTES) : { empty: true as const };
        if ("empty" in found) return data({ message: "Choose the badge's PNG file." }, 400);
        if ("tooLarge" in found) return data({ message: TOO_LARGE }, 413);
        if ("problem" in found) return data({ message: found.problem }, 400);
        return redirect(obPaths.verify(found.id), 303);
      } finally {
        slot?.release();
      }
    },
    (http) => data({ message: http.status === 413 ? TOO_LARGE : http.message }, { status: http.status, headers: http.headers }),
  );
}

export default function VerifyUploadPage({ actionData }: Route.ComponentProps) {
  return (
    <section className="section" data-scripts-start="idle">
      <div className="container narrow">
        <p className="eyebrow">Badge verification</p>
        <h1>Verify a badge</h1>
        <p className="lead">Type the badge's ID, or choose the badge's PNG file: a badge we issued carries its record inside the file.</p>
        <VerifyForms message={actionData?.message} />
      </div>
    </section>
  );
}
