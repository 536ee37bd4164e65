import { data, redirect } from "react-router";
import { VerifyForms, VERIFY_UPLOAD_MAX_BYTES } from "~/features/open-badges/components/verify-forms";
import { awardIdOfBaked } from "~/features/open-badges/verify.server";
import { obPaths } from "~/features/badge-art/open-badge-paths";
import { pageMeta } from "~/lib/meta";
import { readPage } from "~/lib/submission.server";
import badgesCss from "~/styles/badges.css?url";
import type { CacheHandle } from "~/lib/page-cache";
import type { PageHandle } from "~/features/analytics/page-view";
import type { Route } from "./+types/verify-upload";

export const handle = { page: "badges.verify", cacheSeconds: 300 } satisfies CacheHandle & PageHandle;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: badgesCss }];

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Verify a badge", description: "Check a badge issued by the organisation by its ID or its PNG file.", path: "/badges/verify" });

/** GET /badges/verify?id=…: on to that badge's page. */
export function loader({ request }: Route.LoaderArgs) {
  const id = (new URL(request.url).searchParams.get("id") ?? "").trim().slice(0, 60);
  if (id) return redirect(obPaths.verify(encodeURIComponent(id)));
  return null;
}

const TOO_LARGE = "That file is larger than 6 MB: a badge PNG is far smaller.";

/** POST /badges/verify: a baked PNG; its assertion names the badge, whose own page gives the verdict. */
export async function action({ request, context }: Route.ActionArgs) {
  const page = await readPage(request, {
    maxBytes: VERIFY_UPLOAD_MAX_BYTES + 64 * 1024,
    words: (message, status) => (status === 413 ? TOO_LARGE : message),
  });
  if ("answer" in page) return page.answer;
  const file = page.submission.form?.get("badge");
  if (!(file instanceof File) || file.size === 0) return data({ message: "Choose the badge's PNG file." }, 400);
  if (file.size > VERIFY_UPLOAD_MAX_BYTES) return data({ message: TOO_LARGE }, 413);
  const found = await awardIdOfBaked(context.db, Buffer.from(await file.arrayBuffer()));
  if ("problem" in found) return data({ message: found.problem }, 400);
  return redirect(obPaths.verify(found.id), 303);
}

export default function VerifyUploadPage({ actionData }: Route.ComponentProps) {
  return (
    <section className="section">
      <div className="container narrow">
        <p className="eyebrow">Badge verification</p>
        <h1>Verify a badge</h1>
        <p className="lead">Type the badge's ID, or choose the badge's PNG file: a badge we issued carries its record inside the file.</p>
        <VerifyForms message={actionData?.message} />
      </div>
    </section>
  );
}
