import type { MetaDescriptor } from "react-router";
import { site } from "./site";

type Matches = ReadonlyArray<{ id: string; data?: unknown; loaderData?: unknown } | undefined>;

/** PUBLIC_URL, as the root loader hands it to every page's meta. */
export function publicOrigin(matches: Matches): string {
  const root = matches.find((m) => m?.id === "root");
  const data = (root?.loaderData ?? root?.data) as { publicUrl?: string } | undefined;
  return data?.publicUrl ?? "";
}

/** Title, description and Open Graph tags for a page, with absolute URLs from PUBLIC_URL. */
export function pageMeta(
  matches: Matches,
  opts: { title: string; description: string; path: string; image?: string; noindex?: boolean },
): MetaDescriptor[] {
  const origin = publicOrigin(matches);
  const title = opts.path === "/" ? `${site.name} | ${site.tagline}` : `${opts.title} | ${site.name}`;
  const image = origin + (opts.image ?? "/brand/og-default.png");
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: opts.description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: site.name },
    { property: "og:title", content: opts.title },
    { property: "og:description", content: opts.description },
    { property: "og:url", content: origin + opts.path },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
  ];
  if (opts.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
